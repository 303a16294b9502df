/**
 * The warning of an MMD conversion without the model it was made for. Its own module so the studio's
 * first chunk can recognize it without loading the converter (the studio replaces it with a line that
 * says how to give the model there).
 */
import { warning } from '../../warnings';
export const NO_MODEL_WARNING = warning('no .pmx given: assumed the standard MMD skeleton (pass the model for its exact leg lengths and arm angles)', 'mmd.noModel');
