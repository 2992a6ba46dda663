// The workspace's one script: draws the trend the results page lists in words (#trend-data, JSON). Without it the
// page is complete: the caption says the same figures.
(() => {
  const data = document.getElementById('trend-data');
  const canvas = document.getElementById('trend');
  if (!data || !canvas || typeof Chart === 'undefined') return;
  const trend = JSON.parse(data.textContent);
  canvas.parentElement.classList.add('drawn');
  new Chart(canvas, {
    type: 'line',
    data: {
      labels: trend.labels,
      datasets: [
        { label: trend.label, data: trend.values, borderColor: '#1d4ed8', backgroundColor: '#1d4ed8', spanGaps: true, tension: 0.2 },
      ],
    },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: false } },
      scales: { y: { min: trend.min, max: trend.max } },
    },
  });
})();
