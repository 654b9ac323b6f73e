/** The one function of har-validator the tests use (the package ships no types). */
declare module 'har-validator' {
  const validator: { har(data: unknown): Promise<unknown> };
  export default validator;
}
