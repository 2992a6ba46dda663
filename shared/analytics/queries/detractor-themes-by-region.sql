-- Detractors' themes by region: how many detractor answers matched each theme, by the store's region (null: none).
-- Parameters: the tenant ('7'), then a region's id to read only its stores' answers, or NULL for every region.
SELECT a.region_id, t.theme, count(*) AS answers
FROM answers a
CROSS JOIN UNNEST(a.themes) AS t(theme)
WHERE a.tenant = ? AND a.bucket = 'detractor'
  AND coalesce(a.region_id, -1) = coalesce(CAST(? AS integer), a.region_id, -1)
GROUP BY a.region_id, t.theme
ORDER BY a.region_id, answers DESC, t.theme
