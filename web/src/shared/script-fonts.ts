import notoArabic from '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf?url';
import notoBengali from '@expo-google-fonts/noto-sans-bengali/400Regular/NotoSansBengali_400Regular.ttf?url';
import notoDevanagari from '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf?url';
import notoEmoji from '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf?url';
import notoGujarati from '@expo-google-fonts/noto-sans-gujarati/400Regular/NotoSansGujarati_400Regular.ttf?url';
import notoGurmukhi from '@expo-google-fonts/noto-sans-gurmukhi/400Regular/NotoSansGurmukhi_400Regular.ttf?url';
import notoHebrew from '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf?url';
import notoKannada from '@expo-google-fonts/noto-sans-kannada/400Regular/NotoSansKannada_400Regular.ttf?url';
import notoKorean from '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf?url';
import notoMalayalam from '@expo-google-fonts/noto-sans-malayalam/400Regular/NotoSansMalayalam_400Regular.ttf?url';
import notoChinese from '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf?url';
import notoTamil from '@expo-google-fonts/noto-sans-tamil/400Regular/NotoSansTamil_400Regular.ttf?url';
import notoTelugu from '@expo-google-fonts/noto-sans-telugu/400Regular/NotoSansTelugu_400Regular.ttf?url';
import notoThai from '@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf?url';

/** The family of the script fonts, first in every font stack (base.css). */
export const SCRIPT_FONTS_FAMILY = 'Signet Scripts';

// The fonts the sealed PDF draws these scripts with (server/src/modules/sealing/seal-fonts.ts),
// served from our own origin: names read the same on the page as on the seal, on a device that
// has no font for the script. A browser fetches a file only when the page shows a character of
// its range, and not at all when the device has the same font installed (local()).
const FONTS: Array<[url: string, local: string[], range: string]> = [
  [
    notoArabic,
    ['Noto Sans Arabic'],
    'U+0600-06FF, U+0750-077F, U+08A0-08FF, U+FB50-FDFF, U+FE70-FEFF',
  ],
  [notoHebrew, ['Noto Sans Hebrew'], 'U+0590-05FF, U+FB1D-FB4F'],
  [notoDevanagari, ['Noto Sans Devanagari'], 'U+0900-097F, U+A8E0-A8FF'],
  [notoBengali, ['Noto Sans Bengali'], 'U+0980-09FF'],
  [notoGurmukhi, ['Noto Sans Gurmukhi'], 'U+0A00-0A7F'],
  [notoGujarati, ['Noto Sans Gujarati'], 'U+0A80-0AFF'],
  [notoTamil, ['Noto Sans Tamil'], 'U+0B80-0BFF'],
  [notoTelugu, ['Noto Sans Telugu'], 'U+0C00-0C7F'],
  [notoKannada, ['Noto Sans Kannada'], 'U+0C80-0CFF'],
  [notoMalayalam, ['Noto Sans Malayalam'], 'U+0D00-0D7F'],
  [notoThai, ['Noto Sans Thai'], 'U+0E00-0E7F'],
  [
    notoChinese,
    ['Noto Sans SC', 'Noto Sans CJK SC', 'PingFang SC', 'PingFangSC-Regular', 'Microsoft YaHei'],
    'U+2E80-2FFF, U+3000-30FF, U+31F0-31FF, U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF, U+FF00-FFEF',
  ],
  [
    notoKorean,
    ['Noto Sans KR', 'Noto Sans CJK KR', 'Apple SD Gothic Neo', 'Malgun Gothic'],
    'U+1100-11FF, U+3130-318F, U+A960-A97F, U+AC00-D7FF',
  ],
  [notoEmoji, ['Noto Emoji'], 'U+2600-27BF, U+1F300-1FAFF, U+200D, U+FE0F'],
];

let added = false;

/** Registers the script fallbacks with the page's fonts; each is fetched only when needed. */
export function addScriptFonts(): void {
  if (added || typeof FontFace === 'undefined') return;
  added = true;
  for (const [url, local, unicodeRange] of FONTS) {
    const src = [...local.map((name) => `local('${name}')`), `url(${url})`].join(', ');
    // Every weight: bold headings use the same file (the browser emboldens it).
    const descriptors = { unicodeRange, display: 'swap', weight: '100 900' } as const;
    document.fonts.add(new FontFace(SCRIPT_FONTS_FAMILY, src, descriptors));
  }
}
