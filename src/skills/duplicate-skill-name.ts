/**
 * The message for a second skill of one name in one build's `agent.skills` (docs/skills.md): a
 * build cannot hold two, whichever the delivery would keep. `viaRef`: the second entry is a
 * `ref`, whose name is its folder's SKILL.md's.
 */
export function duplicateSkillName(name: string, firstIndex: number, viaRef: boolean): string {
  const from = viaRef ? ", named so by this folder's SKILL.md" : '';
  return `duplicate skill name "${name}"${from} (already used by agent.skills[${firstIndex}]); a build cannot hold two skills of one name`;
}
