// Table tests of the rule book (@kis/rules). Every expected value is written out here from
// what deployed servers do (docs/deployed-servers.md), never computed by the code under test.
import { describe, expect, it } from 'vitest';
import {
  ANSWERS,
  contentTypeOf,
  DEFAULT_CC_PAIR_ID,
  DEFAULT_CREDENTIAL_ID,
  DocumentIdError,
  deriveDocumentId,
  extensionsFor,
  fileKindOf,
  givenDocumentId,
  ingestionPairId,
  isMaskedValue,
  isNotAuthenticated,
  isRouteNotFound,
  isUnknownCredential,
  MASK_EXEMPT_KEYS,
  maskCredentialJson,
  needsCredential,
  normalizeDocumentId,
  parseValidationMessage,
  profileAcceptsSource,
  ROUTE_VARIANTS,
  rawDerivedId,
  roleAllows,
  SOURCES_WITHOUT_CREDENTIAL,
  storedDocumentId,
  validationMessage,
} from '../src/index.js';

describe('document ids', () => {
  it.each([
    ['kis-doc-001', 'kis-doc-001'],
    ['a b', 'a_b'],
    ['docs/intro.md', 'docs%2Fintro.md'],
    ["it's (new)!*", 'it%27s_%28new%29%21%2A'],
    ['café', 'caf%C3%A9'],
    ['~._-', '~._-'],
    ['100%', '100%25'],
    ['a+b=c&d', 'a%2Bb%3Dc%26d'],
    ['📄', '%F0%9F%93%84'],
    ['folder:x', 'folder%3Ax'],
  ])('stores %j as %j', (given, stored) => {
    expect(normalizeDocumentId(given)).toBe(stored);
    expect(storedDocumentId(given, 'ignored')).toBe(stored);
    // a stored id given again is stored as itself
    expect(normalizeDocumentId(givenDocumentId(stored))).toBe(stored);
  });

  it('an id that is no percent-encoding servers produce is given as it is', () => {
    expect(givenDocumentId('50%_off')).toBe('50%_off');
  });

  it.each([
    ['Q3 report / draft', 'ingestion_api_Q3_report_%2F_draft'],
    ['Onboarding', 'ingestion_api_Onboarding'],
    ['é', 'ingestion_api_%C3%A9'],
  ])('derives the id of a document titled %j without id: %j', (title, stored) => {
    expect(deriveDocumentId(title)).toBe(stored);
    expect(storedDocumentId(undefined, title)).toBe(stored);
    expect(storedDocumentId(null, title)).toBe(stored);
    expect(storedDocumentId('', title)).toBe(stored);
    expect(normalizeDocumentId(rawDerivedId(title))).toBe(stored);
  });

  it.each(['\uD800', 'a\uDC00b', 'x\uD83D'])('refuses an id with a lone surrogate: %j', (id) => {
    expect(() => normalizeDocumentId(id)).toThrow(DocumentIdError);
    expect(() => normalizeDocumentId(id)).toThrow(/lone UTF-16 surrogate/);
  });
});

describe('sources and defaults', () => {
  it('names the sources whose connectors need no credential', () => {
    expect([...SOURCES_WITHOUT_CREDENTIAL].sort()).toEqual(
      [
        'craft_file',
        'file',
        'google_sites',
        'ingestion_api',
        'mediawiki',
        'mock_connector',
        'not_applicable',
        'user_file',
        'web',
        'wikipedia',
        'xenforo',
      ].sort(),
    );
  });

  it.each([
    ['file', false],
    ['web', false],
    ['wikipedia', false],
    ['jira', true],
    ['confluence', true],
    ['sharepoint', true],
    ['a_source_of_a_newer_release', true],
  ])('needsCredential(%j) is %j', (source, expected) => {
    expect(needsCredential(source)).toBe(expected);
  });

  it('has credential 0 and pair 1 as defaults', () => {
    expect(DEFAULT_CREDENTIAL_ID).toBe(0);
    expect(DEFAULT_CC_PAIR_ID).toBe(1);
  });

  it.each([
    [undefined, 1],
    [null, 1],
    [0, 1],
    [1, 1],
    [7, 7],
  ])('ingestionPairId(%j) is %j (missing, null or 0: the default pair)', (given, expected) => {
    expect(ingestionPairId(given)).toBe(expected);
  });

  it.each([
    ['seed', 'requesttracker', true],
    ['deployed', 'requesttracker', false],
    ['seed', 'box', true],
    ['deployed', 'box', true],
    ['deployed', 'jira', true],
  ] as const)('a %s server accepts %j: %j', (profile, source, expected) => {
    expect(profileAcceptsSource(profile, source)).toBe(expected);
  });
});

describe('roles', () => {
  it.each([
    ['admin', 'admin', true],
    ['admin', 'curator', true],
    ['admin', 'basic', true],
    ['curator', 'admin', false],
    ['curator', 'curator', true],
    ['curator', 'basic', true],
    ['basic', 'curator', false],
    ['basic', 'basic', true],
  ] as const)('a %s key may call what needs %s: %j', (granted, needed, expected) => {
    expect(roleAllows(granted, needed)).toBe(expected);
  });
});

describe('answers per profile', () => {
  it('a missing or invalid key: 401 on the seed, 403 "not authenticated" on deployed servers', () => {
    expect(ANSWERS.notAuthenticated('seed').status).toBe(401);
    expect(ANSWERS.notAuthenticated('deployed')).toEqual({
      status: 403,
      body: { detail: 'Access denied. User is not authenticated.' },
    });
  });

  it('a key without the role: 403, with INSUFFICIENT_PERMISSIONS on deployed servers', () => {
    expect(ANSWERS.missingRole('seed', 'admin').status).toBe(403);
    const deployed = ANSWERS.missingRole('deployed', 'curator');
    expect(deployed.status).toBe(403);
    expect(deployed.body).toMatchObject({ error_code: 'INSUFFICIENT_PERMISSIONS' });
  });

  it('422 bodies: a detail list on the seed, {status_code, message, data} on deployed servers', () => {
    const items = [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }];
    expect(ANSWERS.validation('seed', items)).toEqual({ status: 422, body: { detail: items } });
    expect(ANSWERS.validation('deployed', items)).toEqual({
      status: 422,
      body: {
        status_code: 422,
        message:
          "[{'type': 'missing', 'loc': ('body', 'name'), 'msg': 'Field required', 'input': None}]",
        data: null,
      },
    });
  });

  it('association: 500 for an unknown id and data = connector id for an existing pair on deployed servers', () => {
    expect(ANSWERS.associationUnknown('deployed', 'connector', 9)).toEqual({
      status: 500,
      body: { error_code: 'INTERNAL_ERROR', detail: 'Unexpected error' },
    });
    expect(ANSWERS.associationUnknown('seed', 'credential', 9).status).toBe(404);
    expect(ANSWERS.associationExists('deployed', 7, 3)).toEqual({
      status: 200,
      body: { success: false, message: 'Connector 7 already has Credential 3', data: 7 },
    });
    expect(ANSWERS.associationExists('seed', 7, 3).body).toMatchObject({
      success: false,
      data: null,
    });
  });

  it('the other deployed statuses of the compat table', () => {
    expect(ANSWERS.unknownPair('deployed', 99)).toMatchObject({
      status: 404,
      body: { error_code: 'CONNECTOR_NOT_FOUND' },
    });
    expect(ANSWERS.duplicateConnector('deployed', 'Docs', 'file')?.status).toBe(400);
    expect(ANSWERS.duplicateConnector('seed', 'Docs', 'file')).toBeUndefined();
    expect(ANSWERS.privateKeyUnknownCredential('deployed', 5).status).toBe(401);
    expect(ANSWERS.privateKeyUnknownCredential('seed', 5).status).toBe(404);
    expect(ANSWERS.invalidDocumentId('bad id')).toEqual({
      status: 400,
      body: { message: 'bad id' },
    });
    expect(ANSWERS.connectorValidation('deployed', "unexpected keyword argument 'x'")).toEqual({
      status: 400,
      body: {
        error_code: 'INVALID_INPUT',
        detail: "Connector validation error: unexpected keyword argument 'x'",
      },
    });
    expect(ANSWERS.connectorValidation('seed', 'anything')).toBeUndefined();
    expect(ANSWERS.routeNotFound()).toEqual({ status: 404, body: { detail: 'Not Found' } });
    expect(ANSWERS.methodNotAllowed()).toEqual({
      status: 405,
      body: { detail: 'Method Not Allowed' },
    });
  });
});

describe('reading answers', () => {
  it.each([
    [404, { detail: 'Not Found' }, true],
    [405, { detail: 'Method Not Allowed' }, true],
    [404, { detail: 'Connector 7 does not exist' }, false],
    [404, { error_code: 'CONNECTOR_NOT_FOUND', detail: 'Not Found' }, true],
    [404, '<html>Not Found</html>', false],
    [500, { detail: 'Not Found' }, false],
  ])('isRouteNotFound(%j, %j) is %j', (status, body, expected) => {
    expect(isRouteNotFound(status, body)).toBe(expected);
  });

  it.each([
    [401, { detail: 'Unauthorized' }, true],
    [403, { detail: 'Access denied. User is not authenticated.' }, true],
    [403, { error_code: 'INSUFFICIENT_PERMISSIONS', detail: 'needs curator' }, false],
    [403, { detail: 'Access denied. User is not an admin.' }, false],
    [403, { detail: 'Unauthorized' }, true],
    [403, { detail: 'Access denied. User has limited permissions.' }, false],
    [400, { detail: 'not authenticated' }, false],
  ])('isNotAuthenticated(%j, %j) is %j', (status, body, expected) => {
    expect(isNotAuthenticated(status, body)).toBe(expected);
  });

  it.each([
    [401, { detail: 'Credential 9 does not exist or does not belong to user' }, true],
    [401, { detail: 'Missing or invalid API key' }, false],
    [404, { detail: 'Credential 9 does not exist or does not belong to user' }, false],
    [401, 'Credential 9 does not exist or does not belong to user', false],
  ])('isUnknownCredential(%j, %j) is %j', (status, body, expected) => {
    expect(isUnknownCredential(status, body)).toBe(expected);
  });

  it('an unknown credential on the credential calls: 401 in every profile', () => {
    const answer = {
      status: 401,
      body: { detail: 'Credential 9 does not exist or does not belong to user' },
    };
    expect(ANSWERS.credentialUnknown(9)).toEqual(answer);
    expect(ANSWERS.privateKeyUnknownCredential('deployed', 9)).toEqual(answer);
    expect(ANSWERS.privateKeyUnknownCredential('seed', 9).status).toBe(404);
  });

  it('renaming an unknown pair: 400 on deployed servers; pausing one: 403 as on the main line; 404 on the seed', () => {
    expect(ANSWERS.pairUnknownForUpdate('deployed', 9, 'name')).toEqual({
      status: 400,
      body: { detail: "CC Pair not found for current user's permissions" },
    });
    expect(ANSWERS.pairUnknownForUpdate('deployed', 9, 'status')).toEqual({
      status: 403,
      body: {
        error_code: 'INSUFFICIENT_PERMISSIONS',
        detail: "Connection not found for current user's permissions",
      },
    });
    expect(ANSWERS.pairUnknownForUpdate('seed', 9, 'name')).toEqual({
      status: 404,
      body: { detail: 'Connector-credential pair 9 does not exist' },
    });
    expect(ANSWERS.pairUnknownForUpdate('seed', 9, 'status')).toEqual({
      status: 404,
      body: { detail: 'Connector-credential pair 9 does not exist' },
    });
  });

  it('reads the items of a deployed 422 message as a server writes it', () => {
    const message =
      "[{'type': 'missing', 'loc': ('body', 'document', 'semantic_identifier'), 'msg': 'Field required', 'input': {'sections': []}}, " +
      "{'type': 'enum', 'loc': ('body', 'access_type'), 'msg': \"Input should be 'public', 'private' or 'sync'\", 'input': 'PUBLIC', 'ctx': {'expected': \"'public', 'private' or 'sync'\"}}, " +
      "{'type': 'string_type', 'loc': ('body', 'document', 'sections', 0, 'text'), 'msg': 'Input should be a valid string', 'input': 5}]";
    expect(parseValidationMessage(message)).toEqual([
      { type: 'missing', loc: ['body', 'document', 'semantic_identifier'], msg: 'Field required' },
      {
        type: 'enum',
        loc: ['body', 'access_type'],
        msg: "Input should be 'public', 'private' or 'sync'",
      },
      {
        type: 'string_type',
        loc: ['body', 'document', 'sections', 0, 'text'],
        msg: 'Input should be a valid string',
      },
    ]);
  });

  it('keeps a message it cannot read as one item', () => {
    expect(parseValidationMessage('1 validation error for Thing')).toEqual([
      { loc: [], msg: '1 validation error for Thing', type: 'value_error' },
    ]);
  });

  it('writes messages it can read back', () => {
    const items = [
      { loc: ['body', 'name'], msg: "it's required", type: 'missing' },
      { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' },
    ];
    expect(validationMessage(items)).toBe(
      "[{'type': 'missing', 'loc': ('body', 'name'), 'msg': \"it's required\", 'input': None}, {'type': 'json_invalid', 'loc': ('body',), 'msg': 'JSON decode error', 'input': None}]",
    );
    expect(parseValidationMessage(validationMessage(items))).toEqual(items);
  });
});

describe('routes', () => {
  it("tries deployed servers' path first, then the seed's", () => {
    expect(ROUTE_VARIANTS.associate).toEqual([
      '/manage/connector/{connector_id}/credential/{credential_id}',
      '/manage/admin/connector/{connector_id}/credential/{credential_id}',
    ]);
    expect(ROUTE_VARIANTS.upload).toEqual(['/user/projects/file/upload', '/user/file/upload']);
    expect(ROUTE_VARIANTS.groupManager).toEqual([
      '/manage/admin/user-group/{user_group_id}/manager',
      '/manage/admin/user-group/{user_group_id}/set-curator',
    ]);
    expect(ROUTE_VARIANTS.groupDocumentSets).toEqual([
      '/manage/admin/user-group/{user_group_id}/document-sets',
      '/manage/admin/document-set',
    ]);
  });
});

describe('file kinds', () => {
  it.each([
    ['notes.md', 'markdown', 'md', 'text/markdown'],
    ['docs/intro.MDX', 'mdx', 'mdx', 'text/mdx'],
    ['a/b/README.TXT', 'text', 'txt', 'text/plain'],
    ['server.log', 'text', 'log', 'text/plain'],
    ['nginx.conf', 'text', 'conf', 'text/plain'],
    ['schema.sql', 'text', 'sql', 'application/sql'],
    ['ci.yml', 'text', 'yaml', 'application/yaml'],
    ['values.yaml', 'text', 'yaml', 'application/yaml'],
    ['page.htm', 'html', 'html', 'text/html'],
    ['feed.xml', 'xml', 'xml', 'application/xml'],
    ['Report.PDF', 'pdf', 'pdf', 'application/pdf'],
    [
      'deck.pptx',
      'pptx',
      'pptx',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    [
      'book.xlsx',
      'xlsx',
      'xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    ['macros.xlsm', 'xlsx', 'xlsm', 'application/vnd.ms-excel.sheet.macroEnabled.12'],
    ['mail.eml', 'eml', 'eml', 'message/rfc822'],
    ['novel.epub', 'epub', 'epub', 'application/epub+zip'],
    ['table.csv', 'csv', 'csv', 'text/csv'],
    ['table.tsv', 'tsv', 'tsv', 'text/tab-separated-values'],
    ['photo.jpeg', 'image', 'jpg', 'image/jpeg'],
    ['cert.pfx', 'key', 'pfx', 'application/x-pkcs12'],
  ])('%s is read as %s (file_type %s, %s)', (name, kind, fileType, mime) => {
    expect(fileKindOf(name)).toMatchObject({ kind, fileType, mime });
    expect(contentTypeOf(name)).toBe(mime);
  });

  it.each(['archive.tar.gz', 'Makefile', '.md', 'binary.bin'])('does not read %s', (name) => {
    expect(fileKindOf(name)).toBeUndefined();
    expect(contentTypeOf(name)).toBe('application/octet-stream');
  });

  it('lists what kis ingest and the web console read', () => {
    // the console reads what needs no library: plain text, Markdown, HTML (DOMParser) and JSON
    expect(extensionsFor('browser')).toEqual([
      '.txt',
      '.text',
      '.md',
      '.markdown',
      '.html',
      '.htm',
      '.json',
      '.conf',
      '.log',
      '.sql',
      '.yml',
      '.yaml',
    ]);
    expect(extensionsFor('ingest')).toEqual([
      '.txt',
      '.text',
      '.md',
      '.markdown',
      '.html',
      '.htm',
      '.json',
      '.conf',
      '.log',
      '.sql',
      '.yml',
      '.yaml',
      '.mdx',
      '.xml',
      '.pdf',
      '.docx',
      '.pptx',
      '.xlsx',
      '.xlsm',
      '.eml',
      '.epub',
      '.csv',
      '.tsv',
      '.png',
      '.jpg',
      '.jpeg',
      '.gif',
      '.webp',
    ]);
  });
});

describe('masked secrets', () => {
  const BULLETS = '••••••••••••';

  it.each([
    ['', BULLETS],
    ['pw-987', BULLETS],
    ['1234567890123', BULLETS], // 13 characters
    ['12345678901234', '1234...1234'], // 14 characters
    ['example-api-token', 'exam...oken'],
    ['admin@example.com', 'admi....com'],
    ['ééééééééééééé', BULLETS], // 13 code points, 26 bytes
    ['📄📄📄📄📄📄📄📄📄📄📄📄📄📄', '📄📄📄📄...📄📄📄📄'], // 14 code points, 28 UTF-16 units
  ])('masks the string %j as %j', (value, masked) => {
    expect(maskCredentialJson({ secret: value })).toEqual({ secret: masked });
    expect(isMaskedValue(masked)).toBe(true);
  });

  it('masks numbers as *****, keeps booleans and nulls, masks inside objects and lists', () => {
    const json = {
      port: 8,
      ratio: 0.5,
      enabled: true,
      proxy: null,
      nested: { password: 'pw-987', authentication_method: 'oauth', depth: { token: 't' } },
      keys: ['short', 'a-much-longer-secret', 3, false, null, ['x'], { cloud_id: 'c-1' }],
    };
    expect(maskCredentialJson(json)).toEqual({
      port: '*****',
      ratio: '*****',
      enabled: true,
      proxy: null,
      nested: { password: BULLETS, authentication_method: 'oauth', depth: { token: BULLETS } },
      keys: [BULLETS, 'a-mu...cret', '*****', false, null, [BULLETS], { cloud_id: 'c-1' }],
    });
    expect(json.nested.password).toBe('pw-987'); // the argument is not changed
  });

  it('shows the exempt keys as they are, at the top level and in objects (not as list items)', () => {
    expect(MASK_EXEMPT_KEYS).toEqual([
      'authentication_method',
      'wiki_base',
      'cloud_name',
      'cloud_id',
    ]);
    expect(
      maskCredentialJson({
        authentication_method: 'certificate',
        wiki_base: 'https://wiki.example.com',
        cloud_name: 'acme',
        cloud_id: '42',
        other: 'certificate',
      }),
    ).toEqual({
      authentication_method: 'certificate',
      wiki_base: 'https://wiki.example.com',
      cloud_name: 'acme',
      cloud_id: '42',
      other: BULLETS,
    });
  });

  it.each([
    [BULLETS, true],
    ['*****', true],
    ['exam...oken', true],
    ['a•b', true],
    ['example-api-token', false],
    ['exam..oken', false],
    ['exam...token', false],
    ['********', false],
    [8, false],
    [null, false],
  ])('isMaskedValue(%j) is %j', (value, expected) => {
    expect(isMaskedValue(value)).toBe(expected);
  });
});
