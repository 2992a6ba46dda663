/** A word with its first letter in upper case, the rest as it is ("transactionConsumer" -> "TransactionConsumer"). */
export const capitalise = (word: string): string => (word ? word[0]!.toUpperCase() + word.slice(1) : word);
