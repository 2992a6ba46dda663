/** snowball-stemmers ships no types: the one function the themes use. */
declare module 'snowball-stemmers' {
  const snowball: { newStemmer(language: string): { stem(word: string): string } };
  export default snowball;
}
