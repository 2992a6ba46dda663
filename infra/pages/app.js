// The workspace's one script: draws the trend the results page sums up in words and lists in a table (#trend-data,
// JSON). Without it the page is complete: the caption and the table say the same figures.
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
        {
          label: trend.label,
          data: trend.values,
          borderColor: '#1d4ed8',
          backgroundColor: '#1d4ed8',
          spanGaps: true,
          tension: 0.2,
          // Each point shown while there are few (one day is a visible point); a long series is a line.
          pointRadius: trend.labels.length > 60 ? 0 : 4,
        },
      ],
    },
    options: {
      maintainAspectRatio: false,
      animation: false,
      plugins: { legend: { display: false } },
      // Half a period of room at each end: a single period sits in the middle, not at the edge.
      scales: { x: { offset: true }, y: { min: trend.min, max: trend.max } },
    },
  });
})();
