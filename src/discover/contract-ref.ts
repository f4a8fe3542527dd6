/** A contract export found in source text: where it is and what JSDoc says about it. */
export interface ContractRef {
  /** Relative to the root, with forward slashes. */
  readonly file: string;
  /** The export's name; `default` for a default export. */
  readonly exportName: string;
  /** Where in the export the contract is, when the export is an object (its key) or a list (its place). */
  readonly member?: string | number;
  /** Made by a tool factory of the project: an export that is no contract when loaded is no tool. */
  readonly fromFactory?: true;
  readonly line: number;
  readonly jsdoc?: string;
}
