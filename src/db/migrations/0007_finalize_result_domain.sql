-- A finalized week's result was stored as the API formatted it (USDC as decimal strings, winners' wallets, week
-- and finalizedAt repeated from their columns). It becomes domain data: micro-USDC as integer strings and user ids;
-- the presenter formats it and reads wallets when serving. Only rows of the old shape (pool.estimatedUsdc) change,
-- so running this again changes nothing.
UPDATE competition_weeks
SET result = jsonb_build_object(
  'qualification', result->'qualification',
  'champions', result->'champions',
  'prizes', COALESCE((
    SELECT jsonb_agg(jsonb_build_object(
      'rank', p->'rank',
      'userId', p->'userId',
      'sp', p->'competitiveSp',
      'rankPct', p->'rankPct',
      'splitAmong', p->'splitAmong',
      'amountMicro', replace(p->>'amountUsdc', '.', '')::numeric::text
    ) ORDER BY i)
    FROM jsonb_array_elements(result->'prizes') WITH ORDINALITY AS e(p, i)
  ), '[]'::jsonb),
  'pool', jsonb_build_object(
    'distributedMicro', replace(result->'pool'->>'distributedUsdc', '.', '')::numeric::text,
    'undistributedMicro', replace(result->'pool'->>'undistributedUsdc', '.', '')::numeric::text
  ),
  'nextWeekEligible', result->'nextWeekEligible'
)
WHERE result->'pool' ? 'estimatedUsdc';
