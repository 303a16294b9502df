/**
 * Layers inside each process (the VS Code rule): shared/ and renderer/ are each a stack of layers,
 * and a file may import only from its own layer or below. The tables are the architecture; a new
 * import that runs back up, or a new cycle between files or between places, fails here.
 *
 * shared/: the base (errors, warnings, budgets, i18n) < math < the humanoid model (vrm) < the motion
 * model < glTF < VRMA < avatars < IK < edits < converters and video capture < exporters < the format table and its
 * dispatch (shared/formats: codecs, planner, takes, output names) < built-in assets and the
 * bedroom's model < the IPC contract. renderer/: libraries (ui widgets, avatar loading, the preview
 * clip, the workers' RPC client) < the kernel (app: Studio, document, history, commands, range, motion files) < the views
 * (panels, timeline, viewport, pose, bedroom, platform, library, capture) < the shell (startStudio, scene
 * switching, desktop sync, shortcuts, the test hook) and the page's entry.
 */
import { describe, expect, it } from 'vitest';
import { cycles, importEdges, layerViolations, placeEdges, type ImportEdge } from '../../testkit/importGraph';

const SHARED: readonly (readonly string[])[] = [
  ['errors', 'warnings', 'readBudget', 'fileProblem', 'bytes', 'i18n'],
  ['math'],
  ['vrm'],
  ['motion'],
  ['gltf'],
  ['vrma'],
  ['avatar'],
  ['ik'],
  ['edits'],
  ['convert', 'capture'],
  ['export'],
  // The format table and its dispatch (shared/formats): every format's sniff, reader and writer
  // (exporters included), the take lister, output names and the planner sit above both the converters
  // and the exporters.
  ['formats'],
  ['assets', 'bedroom'],
  ['rpc', 'contract'],
];

const RENDERER: readonly (readonly string[])[] = [
  ['ui', 'avatar', 'preview', 'env', 'workers', 'styles.css'],
  ['app'],
  ['panels', 'timeline', 'viewport', 'pose', 'bedroom', 'platform', 'library', 'capture'],
  ['shell', 'main'],
];

describe('layers inside each process', () => {
  it('the checker bites: a back-arrow and a cycle added to a graph are found', () => {
    const edges: ImportEdge[] = [
      { from: 'shared/edits/a', to: 'shared/math/b' },
      { from: 'shared/math/b', to: 'shared/edits/c' },
      { from: 'shared/edits/c', to: 'shared/edits/a' },
    ];
    expect(layerViolations(edges, 'shared', SHARED)).toEqual(['math -> edits (shared/math/b imports shared/edits/c)']);
    expect(cycles(edges)).toEqual([['shared/edits/a', 'shared/edits/c', 'shared/math/b']]);
    expect(cycles(placeEdges(edges, 'shared', SHARED))).toEqual([['edits', 'math']]);
    expect(layerViolations([{ from: 'shared/newFolder/x', to: 'shared/math/b' }], 'shared', SHARED)).toEqual(['shared/newFolder/x: in no layer']);
    // The renderer's last back-arrow (taken off): were the kernel to import the viewport again, it is found.
    const back: ImportEdge[] = [
      { from: 'renderer/app/studio', to: 'renderer/viewport/viewport' },
      { from: 'renderer/viewport/onionSkin', to: 'renderer/app/studio' },
    ];
    expect(layerViolations(back, 'renderer', RENDERER)).toEqual(['app -> viewport (renderer/app/studio imports renderer/viewport/viewport)']);
    expect(cycles(placeEdges(back, 'renderer', RENDERER)).map((c) => c.join(' '))).toEqual(['app viewport']);
  });

  it('shared/: no import runs back up its layers, every file is placed', () => {
    expect(layerViolations(importEdges('shared'), 'shared', SHARED)).toEqual([]);
  });

  it('shared/: no cycle between files or between folders', () => {
    const edges = importEdges('shared');
    expect(cycles(edges)).toEqual([]);
    expect(cycles(placeEdges(edges, 'shared', SHARED))).toEqual([]);
  });

  // The kernel draws into the viewport through an interface it owns (app/studioViewport.ts), handed in by the shell.
  it('renderer/: no import runs back up its layers', () => {
    expect(layerViolations(importEdges('renderer'), 'renderer', RENDERER)).toEqual([]);
  });

  it('renderer/: no cycle between files or between folders', () => {
    const edges = importEdges('renderer');
    expect(cycles(edges)).toEqual([]);
    expect(cycles(placeEdges(edges, 'renderer', RENDERER)).map((c) => c.join(' '))).toEqual([]);
  });
});
