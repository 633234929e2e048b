import { describe, expect, it } from 'vitest';
import { referralIdMessage, ZLoginRequest, ZRegisterRequest, ZSignupForm, ZUsername, ZVerifyOtpRequest } from './auth';

const first = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }, field?: string) =>
  r.success ? null : (r.error!.issues.find((i) => field === undefined || i.path[0] === field)?.message ?? null);

const form = { name: 'Ann', email: 'ann@example.com', password: 'Secret1', confirmPassword: 'Secret1', referral_id: '', terms: true };

describe('signup form schema (spec section 5)', () => {
  it.each([
    ['name', { name: '  ' }, 'Name is required'],
    ['email', { email: '' }, 'Email is required'],
    ['email', { email: 'ann@' }, 'Invalid email address'],
    ['password', { password: 'Se1', confirmPassword: 'Se1' }, 'Password must be at least 6 characters'],
    ['password', { password: 'Secret1'.repeat(5), confirmPassword: 'Secret1'.repeat(5) }, 'Password must not exceed 30 characters'],
    ['password', { password: 'secret1', confirmPassword: 'secret1' }, 'Password must contain at least one uppercase letter'],
    ['password', { password: 'SECRET1', confirmPassword: 'SECRET1' }, 'Password must contain at least one lowercase letter'],
    ['password', { password: 'Secrets', confirmPassword: 'Secrets' }, 'Password must contain at least one number'],
    ['confirmPassword', { confirmPassword: 'Secret2' }, "Passwords don't match"],
    ['terms', { terms: false }, 'You must accept the terms and conditions to continue'],
    ['referral_id', { referral_id: 'abc' }, 'Referral ID must be 9 characters (3/9)'],
    ['referral_id', { referral_id: 'abc$12345' }, 'Referral ID must be 9 alphanumeric characters'],
  ])('%s: %j → %s', (field, override, message) => {
    expect(first(ZSignupForm.safeParse({ ...form, ...override }), field)).toBe(message);
  });

  it('accepts a good form and uppercases the referral ID', () => {
    const r = ZSignupForm.safeParse({ ...form, referral_id: 'abcde1234' });
    expect(r.success).toBe(true);
    expect(r.data?.referral_id).toBe('ABCDE1234');
  });

  it('register payload carries no confirmPassword or terms', () => {
    const r = ZRegisterRequest.safeParse({ name: 'Ann', email: 'ann@example.com', password: 'Secret1' });
    expect(r.success).toBe(true);
    expect(Object.keys(r.data!).sort()).toEqual(['email', 'name', 'password']);
  });
});

describe('referral ID, login, OTP and username rules', () => {
  it('shows the count while shorter than 9', () => {
    expect(referralIdMessage('')).toBeNull();
    expect(referralIdMessage('ab1')).toBe('Referral ID must be 9 characters (3/9)');
    expect(referralIdMessage('ABCDEFGHI')).toBeNull();
    expect(referralIdMessage('ABCDEFGHIJ')).toBe('Referral ID must be 9 alphanumeric characters');
  });
  it('login needs a valid e-mail and a password', () => {
    expect(first(ZLoginRequest.safeParse({ email: '', password: 'x' }))).toBe('Email is required');
    expect(first(ZLoginRequest.safeParse({ email: 'a@b.co', password: '' }))).toBe('Password is required');
  });
  it('OTP is exactly 6 digits and needs the access id', () => {
    expect(first(ZVerifyOtpRequest.safeParse({ access_id: 'x', otp: '12345' }))).toBe('OTP must be 6 digits.');
    expect(first(ZVerifyOtpRequest.safeParse({ access_id: 'x', otp: '1234567' }))).toBe('OTP must be 6 digits.');
    expect(first(ZVerifyOtpRequest.safeParse({ otp: '123456' }))).toBe('Access ID not found. Please sign up again.');
    expect(ZVerifyOtpRequest.safeParse({ access_id: 'x', otp: '012345' }).success).toBe(true);
  });
  it('username is required and exactly 9 letters or digits', () => {
    expect(first(ZUsername.safeParse(''))).toBe('Username is required');
    expect(first(ZUsername.safeParse('abc'))).toBe('Username must be exactly 9 characters');
    expect(ZUsername.safeParse('abcde1234').data).toBe('ABCDE1234');
  });
});
