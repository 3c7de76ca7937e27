import type { Literal } from 'mdast';
import type { Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Options as ToMarkdownExtension } from 'mdast-util-to-markdown';
import { markdownLineEnding, markdownSpace } from 'micromark-util-character';
import type { Code, Construct, Extension, State, TokenizeContext, Tokenizer } from 'micromark-util-types';

/**
 * GitBook's block tags (`{% hint style="info" %}`, `{% endhint %}`, `{% embed url="..." %}`):
 * a line that opens with `{%` and closes with `%}` is a flow construct of its own, which, like
 * a heading, may interrupt a paragraph (GitBook writes `{% endhint %}` right under the last
 * line of a hint). The tree keeps each tag line as a `liquidTag` node; grouping an opening tag,
 * what follows it and its end tag into one container is done on the tree (./group.ts), so a tag
 * never matched stays what it was written as.
 */

export interface LiquidTag extends Literal {
  type: 'liquidTag';
}

declare module 'mdast' {
  interface RootContentMap {
    liquidTag: LiquidTag;
  }
  interface BlockContentMap {
    liquidTag: LiquidTag;
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    liquidTag: 'liquidTag';
  }
}

const LEFT_CURLY = 123;
const PERCENT = 37;
const RIGHT_CURLY = 125;

const tokenizeLiquidTag: Tokenizer = function (this: TokenizeContext, effects, ok, nok) {
  // The last two characters that were not spaces: the line must end with `%}`.
  let previous: Code = null;
  let last: Code = null;
  let length = 0;
  const start: State = (code) => {
    if (code !== LEFT_CURLY) return nok(code);
    effects.enter('liquidTag');
    effects.consume(code);
    return percent;
  };
  const percent: State = (code) => {
    if (code !== PERCENT) return nok(code);
    effects.consume(code);
    return inside;
  };
  const inside: State = (code) => {
    if (code === null || markdownLineEnding(code)) {
      // `{%` + something + `%}`: at least `{% x %}` less the spaces.
      if (previous !== PERCENT || last !== RIGHT_CURLY || length < 3) return nok(code);
      effects.exit('liquidTag');
      return ok(code);
    }
    if (!markdownSpace(code)) {
      previous = last;
      last = code;
      length++;
    }
    effects.consume(code);
    return inside;
  };
  return start;
};

const liquidTagConstruct: Construct = { name: 'liquidTag', tokenize: tokenizeLiquidTag };

/** The micromark syntax extension: a flow construct starting at `{`. */
export function liquidTagSyntax(): Extension {
  return { flow: { [LEFT_CURLY]: liquidTagConstruct } };
}

/** Turns the construct into `liquidTag` nodes holding the line as written (trailing spaces aside). */
export function liquidTagFromMarkdown(): FromMarkdownExtension {
  return {
    enter: {
      liquidTag(token) {
        this.enter({ type: 'liquidTag', value: '' }, token);
      },
    },
    exit: {
      liquidTag(token) {
        const node = this.stack.at(-1) as LiquidTag;
        node.value = this.sliceSerialize(token).trimEnd();
        this.exit(token);
      },
    },
  };
}

/** Writes a `liquidTag` node back as its line. */
export function liquidTagToMarkdown(): ToMarkdownExtension {
  return {
    handlers: {
      liquidTag: (node: LiquidTag) => node.value,
    },
    // Text starting a line with `{%` is escaped, so it is not read back as a tag.
    unsafe: [{ character: '{', after: '%', atBreak: true }],
  };
}

/** A tag line parsed: `{% name attr="value" other %}` -> name and attributes; null when it is not one tag. */
export interface ParsedTag {
  name: string;
  attributes: Record<string, string>;
  /** The unnamed argument, as in `{% include "path" %}`. */
  argument?: string;
}

const TAG = /^\{%\s*([@\w][\w@/.:-]*)((?:\s.*?)?)\s*%\}$/;
const ATTRIBUTE = /\s*(?:([\w:-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s"']+))|"((?:[^"\\]|\\.)*)"|([\w:-]+))/y;

export function parseTag(line: string): ParsedTag | null {
  const match = TAG.exec(line);
  if (!match) return null;
  const attributes: Record<string, string> = {};
  let argument: string | undefined;
  const rest = match[2] ?? '';
  ATTRIBUTE.lastIndex = 0;
  // What is not `name="value"` (an expression such as `{% if visitor.claims.plan == "pro" %}`) is skipped.
  while (ATTRIBUTE.lastIndex < rest.length) {
    const start = ATTRIBUTE.lastIndex;
    const attribute = ATTRIBUTE.exec(rest);
    if (!attribute) {
      ATTRIBUTE.lastIndex = start + 1;
      continue;
    }
    if (attribute[1] !== undefined) attributes[attribute[1]] = unescapeQuoted(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    else if (attribute[5] !== undefined) argument ??= unescapeQuoted(attribute[5]);
    else if (attribute[6] !== undefined) attributes[attribute[6]] = 'true';
  }
  return { name: match[1]!, attributes, ...(argument === undefined ? {} : { argument }) };
}

function unescapeQuoted(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/** A tag line written: attributes in the order given, values quoted (quotes inside escaped). */
export function tagLine(name: string, attributes: Record<string, string | number | boolean | undefined> = {}, argument?: string): string {
  const parts = [name];
  if (argument !== undefined) parts.push(`"${argument.replace(/["\\]/g, '\\$&')}"`);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    parts.push(`${key}="${String(value).replace(/["\\]/g, '\\$&')}"`);
  }
  return `{% ${parts.join(' ')} %}`;
}
