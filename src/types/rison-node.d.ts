// rison-node ships no types: the parser the site preview uses (a CommonJS module: its default export).
declare module 'rison-node' {
  interface RisonParser {
    parse(text: string): unknown;
    error(this: RisonParser & { message: string | null }, message: string): undefined;
  }
  const rison: { parser: new (onError: (message: string) => never) => RisonParser };
  export default rison;
}
