/**
 * Transaction ids are 48-bit integers: safe in JSON and JavaScript, and in any 64-bit column. A module of its own, so
 * that a schema naming the bound (a case's path, a survey's) does not build the transaction record's schemas.
 */
export const MAX_TRANSACTION_ID = 2 ** 48 - 1;
