/**
 * Every environment variable is read into the one frozen configuration, publisher base URLs and
 * credentials included; a bad value is an error naming the variable.
 */
import { describe, expect, it } from 'vitest';
import { BUNDLED_CATALOG_DIR, credentialNames, loadConfig, modelEnv } from '../../src/config.ts';

describe('configuration', () => {
  it('reads publisher base URLs from the JSON map and per-publisher variables (the variable wins)', () => {
    const c = loadConfig({}, { ASSAY_PUBLISHER_URLS: '{"sec-edgar":"http://127.0.0.1:1","census-acs":"http://127.0.0.1:2"}', ASSAY_PUBLISHER_URL_SEC_EDGAR: 'http://127.0.0.1:3', ASSAY_PUBLISHER_URL_TREASURY_FISCAL_DATA: 'http://127.0.0.1:4/mirror' });
    expect(c.publishers.baseUrls).toEqual({ 'sec-edgar': 'http://127.0.0.1:3', 'census-acs': 'http://127.0.0.1:2', 'treasury-fiscal-data': 'http://127.0.0.1:4/mirror' });
    expect(Object.isFrozen(c.publishers.baseUrls)).toBe(true);
  });

  it('names the variable when a base URL or the map is bad', () => {
    expect(() => loadConfig({}, { ASSAY_PUBLISHER_URLS: 'sec-edgar=http://x' })).toThrow(/ASSAY_PUBLISHER_URLS: must be a JSON object/);
    expect(() => loadConfig({}, { ASSAY_PUBLISHER_URL_SEC_EDGAR: 'not a url' })).toThrow(/publishers\.baseUrls\.sec-edgar/);
  });

  it('captures exactly the credentials the catalog declares, and the User-Agent', () => {
    expect(credentialNames(BUNDLED_CATALOG_DIR)).toEqual(['CENSUS_API_KEY', 'DATA_GOV_API_KEY', 'SOCRATA_APP_TOKEN']);
    const c = loadConfig({}, { CENSUS_API_KEY: 'k1', UNRELATED_SECRET: 'x', ASSAY_USER_AGENT: 'Assay me@example.org' });
    expect(c.publishers.credentials).toEqual({ CENSUS_API_KEY: 'k1' });
    expect(c.publishers.userAgent).toBe('Assay me@example.org');
  });

  it('keeps the model variables as given, for src/llm/config.ts', () => {
    const c = loadConfig({ dataDir: '/d' }, { ASSAY_LLM_URL: 'http://127.0.0.1:9/v1', ASSAY_LLM_MODEL: 'm', PATH: '/bin' });
    expect(modelEnv(c)).toEqual({ ASSAY_LLM_URL: 'http://127.0.0.1:9/v1', ASSAY_LLM_MODEL: 'm', ASSAY_DATA_DIR: '/d' });
  });

  it('the catalog and cassette directories default to the bundled ones and follow the environment', () => {
    expect(loadConfig({}, {}).catalogDir).toBe(BUNDLED_CATALOG_DIR);
    expect(loadConfig({}, { ASSAY_CATALOG_DIR: '/tmp/cat' }).catalogDir).toBe('/tmp/cat');
    expect(loadConfig({ catalogDir: '/tmp/flag' }, { ASSAY_CATALOG_DIR: '/tmp/cat' }).catalogDir).toBe('/tmp/flag');
  });
});
