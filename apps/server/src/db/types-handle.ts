export type { DB } from './types';
export type { DbKind } from './connect';
