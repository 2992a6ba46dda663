-- Recovery rate by owner: of each owner's cases whose recovery survey was answered, the share that recovered the customer.
SELECT owner_key, count(*) AS cases,
  sum(CASE WHEN recovery IN ('recovered', 'not_recovered') THEN 1 ELSE 0 END) AS surveyed,
  sum(CASE WHEN recovery = 'recovered' THEN 1 ELSE 0 END) AS recovered,
  round(100.0 * sum(CASE WHEN recovery = 'recovered' THEN 1 ELSE 0 END)
    / nullif(sum(CASE WHEN recovery IN ('recovered', 'not_recovered') THEN 1 ELSE 0 END), 0), 1) AS recovery_rate
FROM cases
WHERE tenant = ?
GROUP BY owner_key
ORDER BY owner_key
