/**
 * The well-known test mnemonic of every EVM dev chain and its two account xpubs (what
 * `custody:xpub` prints for it): used by the tests and `npm run demo:chain`, never for money.
 */
export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
export const TEST_EVM_XPUB = 'xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP';
export const TEST_TRON_XPUB = 'xpub6BuRy7ZmkGfP2RWhoor1kWB1w9DvrtmJbFBvnC1bQ4SB5NbCHTyQYCJSXZtxDbFyHTmC7wkU2he3nYYdpZ3Vf6qUAkXSnL6RPif4BDtDEKr';
/** The test mnemonic's hot wallet, m/44'/60'/1'/0/0 (the signer's; the signer tests check it is what it derives). */
export const TEST_HOT_EVM_ADDRESS = '0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650';
