/**
 * Issue 24, findings 1 and 3, the two readers the round-2 ping test found still unbounded: an ASCII
 * FBX of 3-byte empty records (80 MB ran a worker out of its 1.5 GB heap after 53 s) and a .gltf/.glb
 * of empty nodes (30 MB took a worker 19 s and 30 s). Both are now refused by count before the cost,
 * with a typed error worded in English and Japanese; files just under the bound still parse.
 */
import { describe, expect, it } from 'vitest';
import { MotionError } from '../../shared/errors';
import { CATALOGUE } from '../../shared/i18n/catalogue';
import { parseAsciiFbx } from '../../shared/convert/fbx/ascii';
import { MAX_FBX_RECORDS } from '../../shared/convert/fbx/node';
import { MAX_GLTF_JSON_CONTAINERS, parseGlb } from '../../shared/gltf/glb';
import { describeFormat } from '../../shared/formats/codecs';
import { gltfKind } from '../../shared/formats/gltfKind';
import { avatarCheck } from '../../shared/avatar/avatarCheck';
import { emptyNodesGltf, emptyRecordsAsciiFbx } from './hostileReaders';

function typedError(f: () => unknown): MotionError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(MotionError);
    return e as MotionError;
  }
  throw new Error('no error');
}

describe('security: record and container counts are bounded before the cost (findings 1, 3)', () => {
  it(`an ASCII FBX of ${MAX_FBX_RECORDS + 1} empty records is refused (fbx.tooManyRecords, en+ja); ${MAX_FBX_RECORDS} records parse`, () => {
    const over = typedError(() => parseAsciiFbx(emptyRecordsAsciiFbx(MAX_FBX_RECORDS + 1)));
    expect(over).toMatchObject({ code: 'TOO_LARGE', detail: 'fbx.tooManyRecords' });
    expect(over.message).toMatch(/more than 1,048,576 records; an FBX file needs far fewer/);
    expect(CATALOGUE.ja['errorDetail.fbx.tooManyRecords']).toMatch(/レコードが \{max\} 個を超えています/);
    expect(parseAsciiFbx(emptyRecordsAsciiFbx(MAX_FBX_RECORDS)).nodes).toHaveLength(MAX_FBX_RECORDS);
    // Through describe, as the library and Convert Folder reach it.
    expect(typedError(() => describeFormat('empty.fbx', emptyRecordsAsciiFbx(MAX_FBX_RECORDS + 1))).detail).toBe('fbx.tooManyRecords');
  });

  it(`a .gltf or .glb of ${MAX_GLTF_JSON_CONTAINERS + 1} objects and arrays (empty nodes) is refused before JSON.parse in describe, gltfKind and the avatar check; one fewer container parses`, () => {
    // The root object, "asset" and the nodes array are 3 containers besides the nodes.
    const over = MAX_GLTF_JSON_CONTAINERS - 2;
    const text = emptyNodesGltf(over);
    const glb = emptyNodesGltf(over, true);
    expect(typedError(() => describeFormat('nodes.gltf', text))).toMatchObject({ code: 'TOO_LARGE', detail: 'gltf.jsonContainers' });
    expect(typedError(() => describeFormat('nodes.glb', glb))).toMatchObject({ code: 'TOO_LARGE', detail: 'glb.jsonContainers' });
    expect(typedError(() => gltfKind(text)).detail).toBe('gltf.jsonContainers');
    expect(avatarCheck(glb)?.message).toMatch(/more than 1,048,576 objects and arrays/);
    expect(CATALOGUE.ja['errorDetail.gltf.jsonContainers']).toMatch(/\{max\} 個を超えています/);
    const json = parseGlb(emptyNodesGltf(over - 1, true)).json as { nodes: unknown[] };
    expect(json.nodes).toHaveLength(over - 1);
  });
});
