/** Text of Help > About: the app and the work it stands on, in the menu's language (names stay as they are). */
import { t } from '../../shared/i18n';

export function aboutText(version: string): string {
  return [
    t('menu.aboutDetail', { version }),
    '',
    t('menu.aboutBuiltWith'),
    '  three.js (MIT), © three.js authors',
    '  @pixiv/three-vrm and @pixiv/three-vrm-animation (MIT), © pixiv Inc.',
    '  Electron (MIT), © Electron contributors',
    '  MediaPipe Pose, Hands and Face Mesh (@mediapipe/pose, @mediapipe/hands, @mediapipe/face_mesh: their wasm and models ship in the app; Apache-2.0), © Google LLC',
    '',
    t('menu.aboutFormats'),
    '',
    t('menu.aboutData'),
    '(mocap.cs.cmu.edu, created with funding from NSF EIA-0196217); MMDAgent "Mei" motions,',
    '© Nagoya Institute of Technology (MMDAgent Project Team), CC BY 3.0; "CG-CA Gene" © 2023 by',
    'Nagoya Institute of Technology, Moonshot R&D Goal 1 Avatar Symbiotic Society, CC BY 4.0.',
  ].join('\n');
}

/**
 * The only URLs the app opens in the user's browser (setWindowOpenHandler): the home pages of the
 * credited works. Compared exactly, after URL parsing, so no other page, scheme or query gets through.
 */
export const CREDIT_LINKS: readonly string[] = [
  'https://threejs.org/',
  'https://github.com/pixiv/three-vrm',
  'https://www.electronjs.org/',
  'https://vrm.dev/',
  'http://mocap.cs.cmu.edu/',
  'https://www.mmdagent.jp/',
];

export function isCreditLink(url: string): boolean {
  let href: string;
  try {
    href = new URL(url).href;
  } catch {
    return false;
  }
  return CREDIT_LINKS.includes(href);
}
