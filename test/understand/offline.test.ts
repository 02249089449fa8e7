import { describe, expect, it } from 'vitest';
import { interpretOffline } from '../../src/understand/offline/interpret.ts';
import { periodLabel, type Intent } from '../../src/understand/intent.ts';
import { goldIntent, loadCorpus } from '../../src/understand/corpus.ts';
import { SHAPES } from '../../src/understand/intent.ts';

function understood(q: string): Intent {
  const u = interpretOffline(q);
  if (u.status !== 'understood') throw new Error(`expected an intent for "${q}", got: ${u.reason}`);
  return u.intent;
}

describe('offline interpreter', () => {
  it.each([
    ["What was Apple's total revenue in 2023?", 'point', 'Apple', 'total revenue', '2023'],
    ['How much revenue did Microsoft report for fiscal 2020?', 'point', 'Microsoft', 'revenue', 'FY2020'],
    ["What was Apple's revenue in calendar year 2022?", 'point', 'Apple', 'revenue', 'CY2022'],
    ['What was the national debt on March 31, 2024?', 'point', null, 'national debt', '2024-03-31'],
    ['What is the latest total public debt outstanding?', 'point', null, 'total public debt outstanding', 'latest'],
    ['Is the Sierra Club a 501(c)(3)?', 'status', 'Sierra Club', '501(c)(3) status', null],
    ['Show NSF awards received by MIT.', 'entity_list', 'MIT', null, null],
    ['Find education grant opportunities.', 'topical', null, null, null],
  ])('%s → %s', (q, shape, entity, attribute, period) => {
    const i = understood(q);
    expect(i.shape).toBe(shape);
    expect(i.entity).toBe(entity);
    if (attribute) expect(i.attribute).toBe(attribute);
    expect(periodLabel(i.period)).toBe(period);
  });

  it('reads comparisons as named entities with one measure', () => {
    const i = understood('Which had more revenue in 2023, Apple or Microsoft?');
    expect(i.shape).toBe('comparison');
    expect(i.entities).toEqual(['Apple', 'Microsoft']);
    expect(i.attribute).toBe('revenue');
  });

  it('reads a population with a superlative as a ranking, and "top N"', () => {
    const i = understood('What are the 10 counties with the highest diabetes prevalence?');
    expect(i).toMatchObject({ shape: 'ranking', limit: 10, order: 'desc', entity: null, attribute: 'diabetes prevalence' });
    expect(i.geography?.level).toBe('county');
    expect(understood('Which state has the lowest median household income?').order).toBe('asc');
  });

  it('reads thresholds with units and the quantifier', () => {
    const i = understood('Which nonprofits granted more than $100 million?');
    expect(i.shape).toBe('filtered_subset');
    expect(i.threshold).toEqual({ op: '>', value: 100_000_000, unit: 'USD', text: 'more than $100 million' });
    expect(i.quantifier).toBe('exhaustive');
    expect(understood('Give me some companies with revenue over $50 billion in 2023.').quantifier).toBe('existential');
    expect(understood('Which counties have a poverty rate above 30%?').threshold).toMatchObject({ op: '>', value: 30, unit: '%' });
  });

  it('reads a threshold\'s unit written as a word after the number, and the amount is not a currency named', () => {
    const i = understood('How many nonprofits in Rhode Island have revenue above 1 million dollars?');
    expect(i).toMatchObject({ shape: 'filtered_subset', attribute: 'revenue', quantity: 'money', threshold: { op: '>', value: 1e6, unit: 'USD', text: 'above 1 million dollars' } });
    expect(i.geography?.within).toBe('Rhode Island');
    expect(understood('Which Rhode Island nonprofits have revenue of more than 500 million dollars?')).toMatchObject({ shape: 'filtered_subset', attribute: 'revenue', entities: [] });
    expect(understood('Which states have a median household income under 50000 dollars?')).toMatchObject({ attribute: 'median household income', threshold: { op: '<', value: 50000, unit: 'USD' } });
    // a currency named for itself is still an entity
    expect(understood('What was the exchange rate of the Canadian dollar in 2022?').entity).toBe('Canadian dollar');
    // "how many … have assets over …": the count is of the matches; the tested measure is money
    expect(understood('How many DC organizations have assets over $50 million?')).toMatchObject({ shape: 'filtered_subset', quantity: 'money' });
  });

  it('reads people after a threshold\'s number as a count of people, and "a million"', () => {
    expect(understood('How many counties have more than a million people?')).toMatchObject({ shape: 'filtered_subset', attribute: 'total population', quantity: 'count', threshold: { op: '>', value: 1e6, unit: 'count', text: 'more than a million people' } });
    expect(understood('Which Texas counties have more than 100,000 residents?')).toMatchObject({ attribute: 'total population', threshold: { value: 100_000, unit: 'count' } });
    // "over a decade" is no threshold
    expect(interpretOffline('How has the poverty rate in Ohio changed over a decade?').status === 'understood' ? understood('How has the poverty rate in Ohio changed over a decade?').threshold : null).toBeNull();
    // a percent of counted people is their share, the same measure
    expect(understood('Which counties have more than 20 percent of people living in poverty?')).toMatchObject({ shape: 'filtered_subset', threshold: { unit: '%' } });
  });

  it('reads years listed with "and" as each year named: a series of one entity, never only the first year', () => {
    expect(understood("What were Apple's revenues in 2020 and 2021?")).toMatchObject({ shape: 'timeseries', entity: 'Apple', period: null });
    expect(understood("What were Apple's revenues in 2020 and 2021?").periods.map(periodLabel)).toEqual(['2020', '2021']);
    expect(understood("What was Tesla's net income in fiscal 2019, 2020 and 2021?").periods.map(periodLabel)).toEqual(['FY2019', 'FY2020', 'FY2021']);
    // one entity compared with itself across years is its series, not a comparison of one
    expect(understood("Compare Apple's revenue in 2021 and 2023").periods.map(periodLabel)).toEqual(['2021', '2023']);
    expect(understood("Compare Apple's revenue in 2021 and 2023").shape).toBe('timeseries');
  });

  it('a count of one named entity\'s own things is that entity\'s measure, not a population count', () => {
    expect(understood('How many Apple shares were outstanding in 2023?')).toMatchObject({ shape: 'point', entity: 'Apple', attribute: 'shares outstanding' });
    expect(understood('How many students attend Yale?')).toMatchObject({ shape: 'point', entity: 'Yale', attribute: 'students' });
    expect(understood('How much cash did NVIDIA hold at the end of fiscal 2024?')).toMatchObject({ shape: 'point', entity: 'NVIDIA', attribute: 'cash' });
    // a place that bounds the members is still a population count
    expect(understood('How many private foundations are there in DC?').shape).toBe('aggregate');
  });

  it('a place and a possessive inside an institution\'s name stay part of the name', () => {
    // "St. Paul" was read as the entity (the city), and the grant graph answered for a Minneapolis partnership
    expect(understood("Who funds St. Paul's Episcopal Church?").entity).toBe("St. Paul's Episcopal Church");
    expect(understood("Who funds Boston Children's Hospital?").entity).toBe("Boston Children's Hospital");
    expect(understood("Is St. Jude Children's Research Hospital a private foundation?").entity).toBe("St. Jude Children's Research Hospital");
    // a possessive before a measure is still the entity's
    expect(understood("What was Tesla's net income in 2021?").entity).toBe('Tesla');
    expect(understood("Compare Apple's and Tesla's revenue in 2021").entities).toEqual(['Apple', 'Tesla']);
  });

  it('refuses to read a threshold on one measure beside a question about another', () => {
    for (const q of ['Which states with more than 10 million people have the highest poverty rate?', 'Which states with a median household income above $80,000 have the lowest poverty rate?']) {
      const u = interpretOffline(q);
      expect(u.status, q).toBe('cannot_tell');
      if (u.status === 'cannot_tell') expect(u.reason).toMatch(/selecting members by one measure and asking about another/);
    }
  });

  it('expands ranges into periods, fiscal kept fiscal', () => {
    expect(understood("How did Apple's revenue change from 2019 to 2024?").periods.map(periodLabel)).toEqual(['2019', '2020', '2021', '2022', '2023', '2024']);
    const i = understood("How did Intel's total assets evolve between fiscal 2019 and fiscal 2021?");
    expect(i.shape).toBe('timeseries');
    expect(i.periods.map(periodLabel)).toEqual(['FY2019', 'FY2020', 'FY2021']);
  });

  it('reads ratios and correlations as component measures', () => {
    const r = understood("What share of the Red Cross's revenue came from government grants?");
    expect(r.shape).toBe('ratio');
    expect(r.attributes).toEqual(['government grants', 'revenue']);
    const c = understood('Is county poverty associated with diabetes prevalence?');
    expect(c.shape).toBe('correlation');
    expect(c.attributes).toEqual(['poverty', 'diabetes prevalence']);
  });

  it.each([
    ['Which foundations fund Stanford?', 'reverse', 'Stanford'],
    ['What grants did the Ford Foundation make?', 'forward', 'Ford Foundation'],
    ['Whom do Ford and Gates both fund?', 'intersection', null],
    ['Who are the largest grant makers in the country?', 'population', null],
  ])('grant direction: %s → %s', (q, direction, entity) => {
    const i = understood(q);
    expect(i.shape).toBe('grant_graph');
    expect(i.direction).toBe(direction);
    expect(i.entity).toBe(entity);
  });

  it.each(['', '???', 'hello there', 'asdf qwer'])('says it cannot tell for %j, with a reason', (q) => {
    const u = interpretOffline(q);
    expect(u.status).toBe('cannot_tell');
    if (u.status === 'cannot_tell') expect(u.reason).toMatch(/no (shape cue|words)/);
  });

  it('is deterministic', () => {
    const q = 'Compare Walmart, Target and Costco revenue for fiscal 2023.';
    expect(interpretOffline(q)).toEqual(interpretOffline(q));
  });
});

describe('offline interpreter: status and list readings', () => {
  it.each([
    // the whole status phrase: "large" decides the question (a large accelerated filer is not an accelerated filer)
    ['Is Tesla a large accelerated filer?', 'Tesla', 'large accelerated filer status', 'company', null],
    ['Is Apple an accelerated filer?', 'Apple', 'accelerated filer status', 'company', null],
    ['Is the Sierra Club a 501(c)(3)?', 'Sierra Club', '501(c)(3) status', 'nonprofit', null],
    ['Is Wikimedia Foundation a public charity?', 'Wikimedia Foundation', 'public charity status', 'nonprofit', null],
    // "in DC" places the entity: the intent carries it as geography, the entity stays the organisation
    ['Is the American National Red Cross in DC tax-exempt?', 'American National Red Cross', 'tax-exempt status', 'nonprofit', 'DC'],
    ['Is X in the District of Columbia a 501(c)(3)?', 'X', '501(c)(3) status', 'nonprofit', 'District of Columbia'],
    ['Is the Hazen Scholarship Fund in Rhode Island a private foundation?', 'Hazen Scholarship Fund', 'private foundation status', 'nonprofit', 'Rhode Island'],
  ])('%s', (q, entity, attribute, type, within) => {
    const i = understood(q);
    expect([i.shape, i.entity, i.attribute, i.type, i.geography?.within ?? null]).toEqual(['status', entity, attribute, type, within]);
  });

  it.each([
    ['Show every tax return the Ford Foundation has filed.', 'Ford Foundation', 'tax return'],
    ['List NSF awards made to UCAR.', 'UCAR', 'nsf awards'],
    ['List federal contracts awarded to Lockheed Martin.', 'Lockheed Martin', 'federal contracts'],
    ['What filings has Tesla submitted to the SEC this year?', 'Tesla', 'filings'],
  ])('a list names its records: %s', (q, entity, attribute) => {
    const i = understood(q);
    expect([i.shape, i.entity, i.attribute]).toEqual(['entity_list', entity, attribute]);
  });
});

describe('offline interpreter: words that say how or where, not what', () => {
  it.each([
    // a verb of movement over time, or "every year", is not part of the measure
    ["Did Alphabet's revenue grow between 2021 and 2023?", 'timeseries', 'Alphabet', 'revenue'],
    ["Show Apple's revenue every year from 2019 to 2023.", 'timeseries', 'Apple', 'revenue'],
    // the nation named as a place bounds the question; "states" inside "United States" names no members
    ['What is the total national debt of the United States today?', 'point', null, 'total national debt'],
    ['What is the US unemployment rate?', 'point', null, 'unemployment rate'],
    ['What is the national debt?', 'point', null, 'national debt'],
    ['What was the U.S. poverty rate in 2018?', 'point', null, 'poverty rate'],
  ])('%s → %s %s %s', (q, shape, entity, attribute) => {
    const i = understood(q);
    expect([i.shape, i.entity, i.attribute]).toEqual([shape, entity, attribute]);
  });

  it('a count of the people of a place is its own population, read by its key', () => {
    // (a county has no population of members to sum: it was refused as "not a state-level area")
    expect(understood('How many people live in Rhode Island?')).toMatchObject({ shape: 'point', entity: 'Rhode Island', attribute: 'population' });
    expect(understood('How many people live in Harris County, Texas?')).toMatchObject({ shape: 'point', entity: 'Harris County, Texas', attribute: 'population' });
    expect(understood('How many people lived in Texas in 2018?')).toMatchObject({ shape: 'point', entity: 'Texas', attribute: 'population' });
    // members of a place are still counted over its population
    expect(understood('How many private foundations are there in DC?').shape).toBe('aggregate');
  });
});

describe('offline interpreter over the corpus', () => {
  it('reaches at least 90% shape accuracy, every shape represented, and never a schema-invalid intent', async () => {
    const corpus = await loadCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(250);
    expect(new Set(corpus.map((r) => r.shape))).toEqual(new Set(SHAPES));
    let right = 0;
    for (const r of corpus) {
      goldIntent(r); // gold labels must themselves be valid intents
      const u = interpretOffline(r.question);
      if (u.status === 'understood' && u.intent.shape === r.shape) right++;
    }
    expect(right / corpus.length).toBeGreaterThanOrEqual(0.9);
  });
});
