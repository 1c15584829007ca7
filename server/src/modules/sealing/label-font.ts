import type { SealFont } from './seal-fonts.js';

const LATIN_1 = /^[\x20-\x7e\xa0-\xff]*$/;

/**
 * `standard` for text it draws as written (Latin-1: a standard-14 font costs nothing to embed),
 * `other` for anything else: the certificate's labels in Polish, Japanese or Arabic are drawn,
 * never turned into '?'.
 */
export function latin1Or(standard: SealFont, other: SealFont): SealFont {
  const pick = (text: string) => (LATIN_1.test(text) ? standard : other);
  return {
    clean: (text) => pick(text).clean(text),
    width: (text, size) => pick(text).width(text, size),
    show: (register, text, size) => pick(text).show(register, text, size),
    measures: pairMeasures(standard.measures, other.measures),
  };
}

// One identity per pair of measures, so that every document's label font shares its layouts.
const pairs = new WeakMap<object, WeakMap<object, object>>();
function pairMeasures(first: object, second: object): object {
  let withFirst = pairs.get(first);
  if (!withFirst) pairs.set(first, (withFirst = new WeakMap()));
  let pair = withFirst.get(second);
  if (!pair) withFirst.set(second, (pair = {}));
  return pair;
}
