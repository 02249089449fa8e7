/**
 * Causes → NTEE major groups and purpose-text words.
 *
 * The National Taxonomy of Exempt Entities (NTEE, maintained by NCCS and used in the IRS Business
 * Master File) classifies organizations by a major-group letter A–Z. A cause named in a question is
 * matched to the groups whose names or common words it contains; grants are then selected by the
 * recipient's NTEE code where the BMF gives one, and by the filed purpose text otherwise (the words
 * below, as whole-word prefixes). Which method selected each grant is reported, never blended.
 */

interface Group { letter: string; label: string; words: string[] }

/** NTEE major groups with the words a cause or a purpose line uses for them (word prefixes). */
export const NTEE_GROUPS: readonly Group[] = [
  { letter: 'A', label: 'Arts, Culture and Humanities', words: ['art', 'arts', 'cultur', 'museum', 'music', 'theat', 'humanities', 'histor', 'librar', 'journalis', 'media'] },
  { letter: 'B', label: 'Education', words: ['educat', 'school', 'scholarship', 'tuition', 'college', 'universit', 'literacy', 'student', 'learning'] },
  { letter: 'C', label: 'Environment', words: ['environment', 'conservation', 'climate', 'water', 'freshwater', 'lake', 'river', 'watershed', 'ecolog', 'pollution', 'sustainab'] },
  { letter: 'D', label: 'Animal-Related', words: ['animal', 'wildlife', 'fish', 'habitat', 'bird', 'species'] },
  { letter: 'E', label: 'Health Care', words: ['health', 'hospital', 'medical', 'clinic', 'patient'] },
  { letter: 'F', label: 'Mental Health and Crisis Intervention', words: ['mental', 'crisis', 'addiction', 'substance'] },
  { letter: 'G', label: 'Diseases, Disorders and Medical Disciplines', words: ['disease', 'cancer', 'disorder'] },
  { letter: 'H', label: 'Medical Research', words: ['medical research'] },
  { letter: 'I', label: 'Crime and Legal-Related', words: ['crime', 'legal', 'justice', 'violence', 'court', 'prison', 'reentry'] },
  { letter: 'J', label: 'Employment', words: ['employment', 'job', 'workforce'] },
  { letter: 'K', label: 'Food, Agriculture and Nutrition', words: ['food', 'agricultur', 'nutrition', 'farm', 'hunger'] },
  { letter: 'L', label: 'Housing and Shelter', words: ['housing', 'shelter', 'homeless'] },
  { letter: 'M', label: 'Public Safety, Disaster Preparedness and Relief', words: ['disaster', 'relief', 'safety', 'emergenc'] },
  { letter: 'N', label: 'Recreation and Sports', words: ['recreation', 'sport', 'park', 'athletic'] },
  { letter: 'O', label: 'Youth Development', words: ['youth', 'child', 'children', 'kids', 'mentor'] },
  { letter: 'P', label: 'Human Services', words: ['human services', 'family', 'families', 'social services', 'senior', 'poverty'] },
  { letter: 'Q', label: 'International, Foreign Affairs and National Security', words: ['international', 'foreign', 'global'] },
  { letter: 'R', label: 'Civil Rights, Social Action and Advocacy', words: ['civil rights', 'equity', 'advocacy', 'voting', 'democracy', 'racial'] },
  { letter: 'S', label: 'Community Improvement and Capacity Building', words: ['community', 'neighborhood', 'economic development', 'capacity'] },
  { letter: 'T', label: 'Philanthropy, Voluntarism and Grantmaking Foundations', words: ['philanthrop', 'grantmaking', 'foundation'] },
  { letter: 'U', label: 'Science and Technology', words: ['science', 'technolog', 'research'] },
  { letter: 'V', label: 'Social Science', words: ['social science', 'policy research'] },
  { letter: 'W', label: 'Public and Societal Benefit', words: ['public policy', 'civic', 'government'] },
  { letter: 'X', label: 'Religion-Related', words: ['religio', 'church', 'faith', 'ministr', 'congregation', 'synagogue', 'mosque'] },
];

export interface CauseMatch {
  /** The cause as asked. */
  cause: string;
  groups: Array<{ letter: string; label: string }>;
  /** Purpose-text word prefixes. */
  words: string[];
  /** An XPath regular expression over lower-case purpose text (whole-word prefixes). */
  pattern: string;
}

const esc = (w: string) => w.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** The groups and words for a cause, or null when the cause names no NTEE group. */
export function causeMatch(cause: string): CauseMatch | null {
  const c = cause.toLowerCase().replace(/[^a-z ]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (!c) return null;
  const tokens = c.split(' ');
  const groups = NTEE_GROUPS.filter((g) => g.words.some((w) => (w.includes(' ') ? ` ${c} `.includes(` ${w}`) : tokens.some((t) => t.startsWith(w)))));
  if (groups.length === 0) return null;
  const words = [...new Set(groups.flatMap((g) => g.words))];
  return { cause, groups: groups.map((g) => ({ letter: g.letter, label: g.label })), words, pattern: `(^|[^a-z])(${words.map(esc).join('|')})` };
}
