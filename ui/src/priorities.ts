/** The words the UI shows for the API's priorities 1-4 (the schema's `Priority`). */
export const PRIORITIES: Record<number, string> = { 1: "Low", 2: "Medium", 3: "High", 4: "Urgent" };
