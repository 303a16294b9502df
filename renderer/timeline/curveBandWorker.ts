/**
 * Module worker that runs the optimize edit for the curve view's band (curveBands.ts) off the page's
 * main thread: the registry's own runEdit on a motion holding the one track, answering the times of
 * the keys it keeps (transferred). One track of the hour at 120 fps is ~100 ms of optimize.
 */
import { editById, runEdit } from '../../shared/edits/registry';
import { serveRpc } from '../workers/jobs';
import type { BandReply, BandRequest } from './curveBandProtocol';

serveRpc<BandRequest, BandReply>(
  (req) => {
    const def = editById(req.edit);
    if (!def) throw new Error(`no edit ${req.edit}`);
    const source = req.motion.channels[0];
    const out = runEdit(def, { motion: req.motion, ...(req.range ? { range: req.range } : {}) }, req.given).motion;
    const kept = out.channels.find((c) => c.node === source.node && c.path === source.path)?.times ?? source.times;
    return { kept: kept.slice() };
  },
  (r) => [r.kept.buffer as ArrayBuffer],
);
