/** What other capabilities may use of the predictions: the stored prediction record. */
export type { PredictionRow } from "./predictions.repository.js";
