/**
 * jsonc-parser's SyntaxKind values: the tokens its scanner returns (its const enum cannot be read under
 * isolatedModules). Every reader of scanner tokens names them through this table.
 */
export const Token = {
  OpenBrace: 1, CloseBrace: 2, OpenBracket: 3, CloseBracket: 4, Comma: 5, Colon: 6, Null: 7, True: 8, False: 9,
  String: 10, Number: 11, LineComment: 12, BlockComment: 13, LineBreak: 14, Trivia: 15, Unknown: 16, EOF: 17,
} as const;

/** jsonc-parser's ScanError values: what was wrong with the token just scanned. */
export const ScanError = {
  None: 0, UnexpectedEndOfComment: 1, UnexpectedEndOfString: 2, UnexpectedEndOfNumber: 3, InvalidUnicode: 4,
  InvalidEscapeCharacter: 5, InvalidCharacter: 6,
} as const;
