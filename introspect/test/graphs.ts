/** Small hand-written graphs shared by the introspection tests; expected profiles are in each test. */
import { sourceFromText } from '../read.ts';
import type { TripleSource } from '../source.ts';

export const PREFIXES = `@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
`;

/**
 * People and a company. Carol is both Person and Employee (Employee ⊑ Person); she has two names.
 * 19 triples, 7 subjects, 5 typed subjects.
 */
export const PEOPLE = `${PREFIXES}
ex:alice a ex:Person ; ex:name "Alice" ; ex:knows ex:bob ; ex:worksFor ex:acme .
ex:bob a ex:Person ; ex:name "Bob" .
ex:dave a ex:Person ; ex:name "Dave" .
ex:carol a ex:Person, ex:Employee ; ex:name "Carol", "Caz" ; ex:worksFor ex:acme .
ex:acme a ex:Company ; ex:name "ACME" ; ex:founded "1999"^^xsd:integer .
ex:Employee rdfs:subClassOf ex:Person .
ex:worksFor rdfs:domain ex:Person ; rdfs:range ex:Company .
`;

/** A subclass cycle A ⊑ B ⊑ C ⊑ A, with D ⊑ A below it and E unrelated. */
export const CYCLE = `${PREFIXES}
ex:A rdfs:subClassOf ex:B . ex:B rdfs:subClassOf ex:C . ex:C rdfs:subClassOf ex:A . ex:D rdfs:subClassOf ex:A .
ex:x a ex:A, ex:B ; ex:p ex:y .
ex:y a ex:A, ex:D ; ex:p ex:z .
ex:z a ex:C, ex:E .
`;

export const EX = 'http://ex.org/';
export const turtle = (text: string): TripleSource => sourceFromText(text, 'turtle');
