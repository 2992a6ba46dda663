-- Detractors' themes by region: how many detractor answers matched each theme, by the store's region (null: none).
SELECT a.region_id, t.theme, count(*) AS answers
FROM answers a
CROSS JOIN UNNEST(a.themes) AS t(theme)
WHERE a.tenant = ? AND a.bucket = 'detractor'
GROUP BY a.region_id, t.theme
ORDER BY a.region_id, answers DESC, t.theme
