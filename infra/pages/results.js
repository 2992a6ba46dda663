// The results page: asks for the key and the user token (kept in memory only), reads GET /public/results and draws
// the trend, the summary and the rankings. Same origin as the API: no key ever leaves for anywhere else.
(() => {
  const $ = (id) => document.getElementById(id);
  const day = (offset) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
  $('from').value = day(-29);
  $('to').value = day(0);
  const number = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 });
  let chart;

  async function read(groupBy) {
    const query = new URLSearchParams({ journey: $('journey').value, from: $('from').value, to: $('to').value, group_by: groupBy });
    const res = await fetch(`public/results?${query}`, {
      headers: { 'x-service-api-key': $('key').value, 'x-service-user-token': $('token').value },
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      const detail = body.errors?.map((e) => `${e.path}: ${e.message}`).join('; ') || body.detail || body.message || res.statusText;
      throw new Error(`${res.status}: ${detail}`);
    }
    return body;
  }

  const score = (row) => (row.nps ? number.format(row.nps.score) : row.mean === null ? '–' : number.format(row.mean));
  const interval = (row) => (row.nps ? `${number.format(row.nps.ci95[0])} a ${number.format(row.nps.ci95[1])}` : '–');
  const rate = (row) => (row.response_rate === null ? '–' : percent.format(row.response_rate));

  function summary(report) {
    const row = report.data[0] ?? { responses: 0, sent: 0, response_rate: null, mean: null, nps: null };
    const items = [
      [report.journey.indicator === 'nps' ? 'NPS' : 'Média', score(row)],
      ['Respostas', number.format(row.responses)],
      ['Pesquisas enviadas', number.format(row.sent)],
      ['Taxa de resposta', rate(row)],
    ];
    $('summary').replaceChildren(
      ...items.map(([term, value]) => {
        const div = document.createElement('div');
        const dt = document.createElement('dt');
        const dd = document.createElement('dd');
        dt.textContent = term;
        dd.textContent = value;
        div.append(dt, dd);
        return div;
      }),
    );
  }

  function ranking(id, report, what) {
    const nps = report.journey.indicator === 'nps';
    const headers = [what, nps ? 'NPS' : 'Média', ...(nps ? ['IC 95%'] : []), 'Respostas', 'Enviadas', 'Taxa de resposta'];
    const head = document.createElement('tr');
    for (const text of headers) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = text;
      head.append(th);
    }
    $(id).tHead.replaceChildren(head);
    $(id).tBodies[0].replaceChildren(
      ...report.data.map((row) => {
        const tr = document.createElement('tr');
        if (row.low_sample) tr.className = 'low';
        const cells = [
          row.low_sample ? `${row.label} (amostra pequena)` : row.label,
          score(row),
          ...(nps ? [interval(row)] : []),
          number.format(row.responses),
          number.format(row.sent),
          rate(row),
        ];
        cells.forEach((text, i) => {
          const cell = document.createElement(i === 0 ? 'th' : 'td');
          if (i === 0) cell.scope = 'row';
          cell.textContent = text;
          tr.append(cell);
        });
        return tr;
      }),
    );
  }

  function trend(report) {
    const nps = report.journey.indicator === 'nps';
    const points = report.data.filter((row) => row.responses > 0);
    const label = nps ? 'NPS' : 'Média';
    $('trend-caption').textContent = points.length
      ? `${label} por ${report.group_by === 'week' ? 'semana' : 'dia'}: ${points.map((row) => `${row.key} ${score(row)}`).join(', ')}`
      : 'Nenhuma resposta no período.';
    // Every day of the range on the axis (weeks as they come): a day without answers is a gap, not a zero.
    const keys = [];
    if (report.group_by === 'day')
      for (let t = Date.parse(report.from); t <= Date.parse(report.to); t += 86400000) keys.push(new Date(t).toISOString().slice(0, 10));
    else keys.push(...points.map((row) => row.key));
    const byKey = new Map(points.map((row) => [row.key, nps ? row.nps.score : row.mean]));
    chart?.destroy();
    chart = new Chart($('trend'), {
      type: 'line',
      data: {
        labels: keys,
        datasets: [
          {
            label,
            data: keys.map((key) => byKey.get(key) ?? null),
            borderColor: '#1d4ed8',
            backgroundColor: '#1d4ed8',
            spanGaps: true,
            tension: 0.2,
          },
        ],
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: false } },
        scales: nps ? { y: { min: -100, max: 100 } } : { y: { min: points[0]?.scale.min, max: points[0]?.scale.max } },
      },
    });
  }

  $('query').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('status').className = '';
    $('status').textContent = 'Carregando…';
    try {
      const days = (Date.parse($('to').value) - Date.parse($('from').value)) / 86400000;
      const [journey, periods, stores, employees] = await Promise.all([
        read('journey'),
        read(days > 120 ? 'week' : 'day'),
        read('store'),
        read('employee'),
      ]);
      summary(journey);
      trend(periods);
      ranking('stores', stores, 'Loja');
      ranking('employees', employees, 'Funcionário');
      $('results').hidden = false;
      $('status').textContent = `Resultados de ${journey.from} a ${journey.to}.`;
    } catch (error) {
      $('results').hidden = true;
      $('status').className = 'error';
      $('status').textContent = `Não foi possível ler os resultados (${error.message}).`;
    }
  });
})();
