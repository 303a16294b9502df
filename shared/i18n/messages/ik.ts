/**
 * IK posing, planted feet and fitting to an avatar (issue 17): the pin-feet and fit edits' labels (the
 * registry's `edit.<id>.*` keys), the IK handles, "Pin hand/foot" and the contact strip.
 */
import { defineMessages } from './define';

export default defineMessages({
  en: {
    'edit.pin-feet.label': 'Pin feet',
    'edit.pin-feet.help': 'Hold planted feet still (foot contacts found in the motion, leg IK)',
    'edit.pin-feet.param.height': 'Contact height',
    'edit.pin-feet.param.height.help': 'a foot stands when its ankle or toes are this close to the floor',
    'edit.pin-feet.param.speed': 'Contact speed',
    'edit.pin-feet.param.speed.help': 'and its ankle moves slower than this (horizontally)',
    'edit.pin-feet.param.min-contact': 'Shortest contact',
    'edit.pin-feet.param.min-contact.help': 'shorter contacts are ignored',
    'edit.pin-feet.param.blend': 'Blend',
    'edit.pin-feet.param.blend.help': 'fade in and out of each hold',
    'edit.reason.noLegs': 'The motion has no complete legs (upper leg, lower leg, foot)',
  },
  ja: {
    'edit.pin-feet.label': '足を固定',
    'edit.pin-feet.help': '接地している足を止めます(モーションから接地を検出し、足IKで解きます)',
    'edit.pin-feet.param.height': '接地の高さ',
    'edit.pin-feet.param.height.help': '足首かつま先が床からこの高さ以内なら接地とみなします',
    'edit.pin-feet.param.speed': '接地の速さ',
    'edit.pin-feet.param.speed.help': 'かつ足首の水平の速さがこれより遅いとき',
    'edit.pin-feet.param.min-contact': '最短の接地',
    'edit.pin-feet.param.min-contact.help': 'これより短い接地は無視します',
    'edit.pin-feet.param.blend': 'ブレンド',
    'edit.pin-feet.param.blend.help': '固定の入りと抜けのフェード時間',
    'edit.reason.noLegs': 'モーションに脚(上腿・下腿・足)がそろっていません',
  },
});
