/**
 * Module worker that runs long edits off the page's main thread (longEdits.ts): the registry's own
 * runEdit, on the motion rebuilt from what the page sent and the channels kept from the last request
 * (editWire.ts), with its progress posted as it goes. Cancel terminates this worker.
 */
import { editById, runEdit } from '../../shared/edits/registry';
import { durationOf, type Channel } from '../../shared/motion/types';
import { serveRpc } from '../workers/jobs';
import { receiveMotion, replyMotion } from './editWire';
import { mapRange } from './range';
import type { EditReply, EditRequest } from './editProtocol';

/** The channels of the last request's motion, in its order (the page keeps the same list). */
let held: readonly Channel[] = [];
let transfer: ArrayBuffer[] = [];

serveRpc<EditRequest, EditReply>(
  (req, progress) => {
    const def = editById(req.edit);
    if (!def) throw new Error(`no edit ${req.edit}`);
    const motion = receiveMotion(req.motion, held);
    held = motion.channels;
    const out = runEdit(def, { motion, range: req.range, other: req.other, time: req.time, avatar: req.avatar }, req.given, progress);
    const reply = replyMotion(motion, out.motion);
    transfer = reply.transfer;
    const range = out.timeMap ? mapRange(req.studioRange, out.timeMap, durationOf(out.motion)) : undefined;
    return { motion: reply.motion, figures: out.figures, params: out.params, ...(range !== undefined ? { range } : {}) };
  },
  () => transfer,
);
