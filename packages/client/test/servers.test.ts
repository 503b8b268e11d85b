/**
 * One client for both kinds of server, with no option to set: against small servers that answer
 * as the compat notes say (deployed servers' routes, a server that follows the seed, an old one
 * whose upload answers a bare array), and against the emulator in both profiles.
 */
import { type Emulator, startEmulator } from '@kis/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKisClient, type KisClient, NotFoundError } from '../src/index.js';
import { type FakeServer, type Received, type Reply, startFakeServer } from './fake-server.js';
import { API_KEY } from './helpers.js';

const kisFor = (baseUrl: string, key = API_KEY): KisClient =>
  createKisClient({ baseUrl, apiKey: key, logLevel: 'off', maxRetries: 0 });

/** Deployed servers' association: a body with a name and a lower-case access type. */
function deployedAssociation(pairs: Set<string>) {
  return (req: Received): Reply => {
    const body = req.json as { name?: unknown; access_type?: unknown };
    if (
      typeof body?.name !== 'string' ||
      !['public', 'private', 'sync'].includes(String(body.access_type))
    ) {
      const message =
        "[{'type': 'missing', 'loc': ('body', 'name'), 'msg': 'Field required', 'input': {}}]";
      return { status: 422, body: { status_code: 422, message, data: null } };
    }
    const [, , , c, , k] = req.path.split('/');
    const key = `${c}/${k}`;
    if (pairs.has(key)) {
      const message = `Connector ${c} already has Credential ${k}`;
      return { body: { success: false, message, data: Number(c) } };
    }
    pairs.add(key);
    return {
      body: {
        success: true,
        message: 'Creating new connector credential pair',
        data: 40 + pairs.size,
      },
    };
  };
}

const userFile = (name: string, i: number) => ({
  id: `c2b1e0f4-0000-4000-8000-00000000000${i}`,
  name,
  file_id: `file-${name}`,
  status: 'PROCESSING',
  file_type: 'image/png',
  created_at: '2025-01-15T09:58:00Z',
});

/** The file names of a multipart upload's `files` parts. */
function fileNames(req: Received): string[] {
  return [...req.body.toString('latin1').matchAll(/name="files"; filename="([^"]+)"/g)].map(
    (m) => m[1] ?? '',
  );
}

/** A deployed server (release ≥ 1.10): its paths only. */
function deployed(): Promise<FakeServer> {
  const pairs = new Set<string>();
  const associate = deployedAssociation(pairs);
  return startFakeServer({
    'PUT /manage/connector/{c}/credential/{k}': associate,
    'DELETE /manage/connector/{c}/credential/{k}': (req) => {
      const [, , , c, , k] = req.path.split('/');
      const had = pairs.delete(`${c}/${k}`);
      return { body: { success: had, message: had ? 'removed' : 'no such pair', data: null } };
    },
    'POST /user/projects/file/upload': (req) => ({
      body: { user_files: fileNames(req).map(userFile), rejected_files: [] },
    }),
    'GET /version': () => ({ body: { backend_version: 'v4.6.1' } }),
  });
}

/** A server that follows the seed, with the upload of releases up to 1.9 (a bare array). */
function seedOnly(): Promise<FakeServer> {
  return startFakeServer({
    'PUT /manage/admin/connector/{c}/credential/{k}': () => ({
      body: { success: true, message: 'Credential associated', data: 7 },
    }),
    'POST /user/file/upload': (req) => ({ body: fileNames(req).map(userFile) }),
  });
}

const png = (name: string) => ({
  data: new Uint8Array([137, 80, 78, 71]),
  fileName: name,
  contentType: 'image/png',
});

describe('association', () => {
  let dep: FakeServer;
  let seed: FakeServer;
  beforeAll(async () => {
    [dep, seed] = await Promise.all([deployed(), seedOnly()]);
  });
  afterAll(async () => {
    await Promise.all([dep.close(), seed.close()]);
  });

  it('deployed servers: their path at once, with a name and a lower-case access type', async () => {
    const kis = kisFor(dep.baseUrl);
    const from = dep.requests.length;
    const r = await kis.connectors.associateCredential(7, 3, { access_type: 'PUBLIC' });
    expect(r.success).toBe(true);
    expect(r.ccPairId).toBe(r.data);
    const sent = dep.requests.slice(from);
    expect(sent.map((q) => `${q.method} ${q.path}`)).toEqual([
      'PUT /manage/connector/7/credential/3',
    ]);
    // no name given: the ids, as the servers word a pair
    expect(sent[0]?.json).toEqual({ name: 'Connector 7 / Credential 3', access_type: 'public' });
  });

  it('a pair that already exists: data is the connector id, never reported as a pair id', async () => {
    const kis = kisFor(dep.baseUrl);
    await kis.connectors.associateCredential(8, 3, {
      name: 'Pair',
      access_type: 'private',
      groups: [1],
    });
    const again = await kis.connectors.associateCredential(8, 3, {
      name: 'Pair',
      access_type: 'private',
    });
    expect(again).toEqual({
      success: false,
      message: 'Connector 8 already has Credential 3',
      data: 8,
      ccPairId: null,
    });
  });

  it("seed servers: the seed's path after a route-not-found, then straight there (per client)", async () => {
    const kis = kisFor(seed.baseUrl);
    const from = seed.requests.length;
    const first = await kis.connectors.associateCredential(7, 3);
    expect(first.ccPairId).toBe(7);
    await kis.connectors.associateCredential(9, 3, { name: 'Wiki', access_type: 'public' });
    expect(seed.calls().slice(from)).toEqual([
      'PUT /manage/connector/7/credential/3',
      'PUT /manage/admin/connector/7/credential/3',
      'PUT /manage/admin/connector/9/credential/3',
    ]);
    // both paths got the body deployed servers require
    for (const q of seed.requests.slice(from))
      expect(q.json).toMatchObject({ access_type: 'public' });
    expect(seed.requests[from + 1]?.json).toEqual({
      name: 'Connector 7 / Credential 3',
      access_type: 'public',
    });
    // another client learns on its own: no state shared between clients
    const other = kisFor(seed.baseUrl);
    const before = seed.requests.length;
    await other.connectors.associateCredential(10, 3);
    expect(seed.requests.length - before).toBe(2);
  });

  it('a 405 on the first path is a route-not-found too', async () => {
    const server = await startFakeServer({
      'GET /manage/connector/{c}/credential/{k}': () => ({ body: [] }),
      'PUT /manage/admin/connector/{c}/credential/{k}': () => ({
        body: { success: true, data: 3 },
      }),
    });
    try {
      const r = await kisFor(server.baseUrl).connectors.associateCredential(1, 2);
      expect(r.ccPairId).toBe(3);
      expect(server.calls()).toEqual([
        'PUT /manage/connector/1/credential/2',
        'PUT /manage/admin/connector/1/credential/2',
      ]);
    } finally {
      await server.close();
    }
  });

  it('any other 404 is an answer, not a missing route: no fallback', async () => {
    const server = await startFakeServer({
      'PUT /manage/connector/{c}/credential/{k}': () => ({
        status: 404,
        body: { detail: 'Connector 5 does not exist' },
      }),
    });
    try {
      const err = await kisFor(server.baseUrl)
        .connectors.associateCredential(5, 1)
        .catch((e: unknown) => e);
      expect(NotFoundError.isInstance(err)).toBe(true);
      expect(String((err as Error).message)).toContain('PUT');
      expect(server.calls()).toEqual(['PUT /manage/connector/5/credential/1']);
    } finally {
      await server.close();
    }
  });

  it('dissociateCredential: DELETE on deployed servers; a seed server says it has no such route', async () => {
    const kis = kisFor(dep.baseUrl);
    await kis.connectors.associateCredential(11, 3);
    expect((await kis.connectors.dissociateCredential(11, 3)).success).toBe(true);
    expect((await kis.connectors.dissociateCredential(11, 3)).success).toBe(false);
    const err = await kisFor(seed.baseUrl)
      .connectors.dissociateCredential(11, 3)
      .catch((e: unknown) => e);
    expect(NotFoundError.isInstance(err)).toBe(true);
    expect((err as Error).message).toContain('no dissociation route');
  });
});

describe('upload', () => {
  it('deployed servers: /user/projects/file/upload, { user_files, rejected_files }', async () => {
    const server = await deployed();
    try {
      const kis = kisFor(server.baseUrl);
      const answer = await kis.files.upload([png('a.png'), png('b.png')]);
      expect(answer.user_files.map((f) => f.file_id)).toEqual(['file-a.png', 'file-b.png']);
      expect(answer.rejected_files).toEqual([]);
      expect((await kis.files.uploadImage(png('c.png'))).fileId).toBe('file-c.png');
      expect(server.calls()).toEqual([
        'POST /user/projects/file/upload',
        'POST /user/projects/file/upload',
      ]);
    } finally {
      await server.close();
    }
  });

  it("servers up to 1.9: the seed's /user/file/upload, a bare array made into the object", async () => {
    const server = await seedOnly();
    try {
      const kis = kisFor(server.baseUrl);
      const answer = await kis.files.upload(png('a.png'));
      expect(answer).toEqual({ user_files: [userFile('a.png', 0)], rejected_files: [] });
      const image = await kis.files.uploadImage(png('d.png'));
      expect(image.fileId).toBe('file-d.png');
      expect(server.calls()).toEqual([
        'POST /user/projects/file/upload',
        'POST /user/file/upload',
        'POST /user/file/upload',
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('version', () => {
  it('{ backendVersion } from GET /version; null where the server has no such route', async () => {
    const [dep, seed] = await Promise.all([deployed(), seedOnly()]);
    try {
      expect(await kisFor(dep.baseUrl).version()).toEqual({ backendVersion: 'v4.6.1' });
      expect(await kisFor(seed.baseUrl).version()).toBeNull();
    } finally {
      await Promise.all([dep.close(), seed.close()]);
    }
  });
});

describe.each(['seed', 'deployed'] as const)('against the emulator (%s profile)', (profile) => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, dbPath: ':memory:', adminKey: API_KEY, profile });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('sets a connector up, uploads an image and ingests into the new pair', async () => {
    const kis = kisFor(emu.baseUrl);
    const setup = await kis.setupConnector({
      connector: {
        name: 'Handbook',
        source: 'file',
        input_type: 'load_state',
        access_type: 'PUBLIC',
        connector_specific_config: { file_locations: [] },
      },
    });
    expect(setup.credentialId).toBe(0);
    expect(typeof setup.ccPairId).toBe('number');
    const again = await kis.connectors.associateCredential(setup.connectorId, 0);
    expect(again.success).toBe(false);
    expect(again.ccPairId).toBeNull();
    const { fileId } = await kis.files.uploadImage(png('diagram.png'));
    const r = await kis.ingestDocument(
      {
        semantic_identifier: 'Diagram',
        sections: [{ text: 'see the image' }, { image_file_id: fileId }],
        source: 'file',
        metadata: {},
      },
      { ccPairId: setup.ccPairId },
    );
    expect(r.documentId).toBe('ingestion_api_Diagram');
    expect((await kis.version())?.backendVersion).toContain(profile);
  });
});
