/**
 * The well-known test mnemonic of every EVM dev chain and its two account xpubs (what
 * `custody:xpub` prints for it): used by the tests and `npm run demo:chain`, never for money.
 */
export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
export const TEST_EVM_XPUB = 'xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP';
export const TEST_TRON_XPUB = 'xpub6BuRy7ZmkGfP2RWhoor1kWB1w9DvrtmJbFBvnC1bQ4SB5NbCHTyQYCJSXZtxDbFyHTmC7wkU2he3nYYdpZ3Vf6qUAkXSnL6RPif4BDtDEKr';
