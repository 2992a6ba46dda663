-- NPS by store and week: promoters minus detractors, in percent of the answers of NPS journeys.
SELECT store_id, date_trunc('week', answered_at) AS week, count(*) AS answers,
  round(100.0 * (sum(CASE WHEN bucket = 'promoter' THEN 1 ELSE 0 END) - sum(CASE WHEN bucket = 'detractor' THEN 1 ELSE 0 END)) / count(*), 1) AS nps
FROM answers
WHERE tenant = ? AND bucket IN ('detractor', 'passive', 'promoter')
GROUP BY store_id, date_trunc('week', answered_at)
ORDER BY week, store_id
