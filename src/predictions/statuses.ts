/** A prediction's statuses, as the predictions_status_check constraint allows them. */
export const PREDICTION_STATUSES = ["pending", "open", "won", "lost", "void", "rejected"] as const;

export type PredictionStatus = (typeof PREDICTION_STATUSES)[number];
