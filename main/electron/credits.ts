/** Text of Help > About: the app and the work it stands on. */
export function aboutText(version: string): string {
  return [
    `VRMA Studio ${version}`,
    'A motion studio for VRM avatars: edit, convert and preview VRM Animation (.vrma).',
    '',
    'Built with:',
    '  three.js (MIT), © three.js authors',
    '  @pixiv/three-vrm and @pixiv/three-vrm-animation (MIT), © pixiv Inc.',
    '  Electron (MIT), © Electron contributors',
    '',
    'Formats: VRM and VRM Animation by the VRM Consortium; VMD/VPD by the MikuMikuDance community;',
    'BVH by Biovision.',
    '',
    'Motion data used in tests and examples: the CMU Graphics Lab Motion Capture Database',
    '(mocap.cs.cmu.edu, created with funding from NSF EIA-0196217); MMDAgent "Mei" motions,',
    '© Nagoya Institute of Technology (MMDAgent Project Team), CC BY 3.0; "CG-CA Gene" © 2023 by',
    'Nagoya Institute of Technology, Moonshot R&D Goal 1 Avatar Symbiotic Society, CC BY 4.0.',
  ].join('\n');
}
