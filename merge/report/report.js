/*
 * The page script of `xrlm report` (inlined into every report, after
 * dygraphs). It reads the JSON data block the tool wrote, builds the
 * tables with textContent only (session strings never become markup) and
 * draws the charts with dygraphs.
 *
 * The per-frame series are kept whole as Float32Arrays. A chart is given
 * at most a few thousand points: for a wide view each bucket of frames
 * gives two, its minimum and its maximum, so a single-frame spike still
 * shows; once a view holds few enough frames every frame is drawn. The
 * points are rebuilt whenever a zoom or pan leaves the range or the
 * resolution they were built for. The frame charts share their x range.
 *
 * When everything is drawn, <html> gets data-xrlm-ready="N" (N charts)
 * and data-xrlm-ms (milliseconds since the page began to load);
 * on a failure data-xrlm-error holds the message (the tests check both).
 */
(function () {
	"use strict";

	const BUCKETS = 1200; /* min/max buckets across a chart's visible width */
	const root = document.documentElement;
	const main = document.getElementById("xrlm-main");
	let data;
	let frameCharts = [];
	let chartCount = 0;
	let busy = false;

	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined && text !== null)
			e.textContent = String(text);
		return e;
	}

	function add(parent, tag, cls, text) {
		return parent.appendChild(el(tag, cls, text));
	}

	function num(v, d) {
		return typeof v === "number" ? v.toFixed(d) : "";
	}

	function decode(b64) {
		const s = atob(b64);
		const bytes = new Uint8Array(s.length);
		for (let i = 0; i < s.length; i++)
			bytes[i] = s.charCodeAt(i);
		return new Float32Array(bytes.buffer);
	}

	/* A table from a header row and rows of cells; cells are text. */
	function table(parent, head, rows, nameCols, cls) {
		const t = add(add(parent, "div", "scroll"), "table", cls);
		const hr = add(add(t, "thead"), "tr");
		head.forEach((h, i) => add(hr, "th", i < nameCols ? "name" : "", h));
		const tb = add(t, "tbody");
		rows.forEach(r => {
			const tr = add(tb, "tr");
			r.forEach((c, i) => {
				if (c instanceof Node)
					add(tr, "td", i < nameCols ? "name" : "").appendChild(c);
				else
					add(tr, "td", i < nameCols ? "name" : "", c);
			});
		});
		return t;
	}

	function section(title) {
		add(main, "h2", null, title);
	}

	/* ---- header, metadata, summary ---- */

	function header() {
		const layer = data.target_layer || "(target layer not named)";
		add(main, "h1", null, "xrlm report: " + layer);
		add(main, "p", "sub", data.source + " \u2014 " + data.frames + " frames; " + data.generator);
		(data.warnings || []).forEach(w => add(main, "p", "error", w));
	}

	function metadata() {
		const rows = data.meta.map(m => [m[0], m[1] === null ? "" : m[1]]);
		data.footer.forEach(m => rows.push(["(after the rows) " + m[0], m[1] === null ? "" : m[1]]));
		if (!rows.length)
			return;
		section("Session");
		table(main, ["key", "value"], rows, 2, "meta");
	}

	function summary() {
		section("Summary (recomputed from the rows; \u00b5s unless named otherwise)");
		const rows = data.columns.map(c => [c.name, String(c.count), num(c.mean, 3),
			num(c.median, 3), num(c.p95, 3), num(c.p99, 3), num(c.min, 3), num(c.max, 3)]);
		table(main, ["column", "count", "mean", "median", "p95", "p99", "min", "max"], rows, 1);
	}

	/* ---- frame-by-frame charts ---- */

	/* Rows for frames [x0, x1] of @series: every frame, or min/max per bucket. */
	function rowsFor(series, x0, x1, buckets) {
		const n = series[0].length;
		x0 = Math.max(0, Math.floor(x0));
		x1 = Math.min(n - 1, Math.ceil(x1));
		const rows = [];
		const val = v => (v === v ? v : null);
		if (x1 - x0 + 1 <= 2 * buckets) {
			for (let i = x0; i <= x1; i++)
				rows.push([i].concat(series.map(s => val(s[i]))));
			return rows;
		}
		const w = (x1 - x0 + 1) / buckets;
		for (let b = 0; b < buckets; b++) {
			const a = x0 + Math.floor(b * w), e = x0 + Math.floor((b + 1) * w);
			const lo = [a], hi = [a + (e - a) / 2];
			for (const s of series) {
				let mn = Infinity, mx = -Infinity;
				for (let i = a; i < e; i++) {
					const v = s[i];
					if (v < mn) mn = v;
					if (v > mx) mx = v;
				}
				lo.push(mn === Infinity ? null : mn);
				hi.push(mx === -Infinity ? null : mx);
			}
			rows.push(lo, hi);
		}
		return rows;
	}

	/* Makes @c show [x0, x1], rebuilding its points when they do not fit. */
	function show(c, x0, x1) {
		const n = c.series[0].length;
		const width = Math.max(1, x1 - x0);
		const b = c.built;
		const fits = b && x0 >= b.lo && x1 <= b.hi && width / b.width > 0.66 && width / b.width < 1.5;
		const opts = {dateWindow: [x0, x1]};
		if (!fits) {
			const lo = Math.max(0, x0 - width), hi = Math.min(n - 1, x1 + width);
			const buckets = Math.max(1, Math.round(BUCKETS * (hi - lo) / width));
			opts.file = rowsFor(c.series, lo, hi, buckets);
			c.built = {lo: lo, hi: hi, width: width};
		}
		busy = true;
		try {
			c.g.updateOptions(opts);
		} finally {
			busy = false;
		}
	}

	function showAll(x0, x1, except) {
		for (const c of frameCharts)
			if (c !== except)
				show(c, x0, x1);
	}

	/* Marks a chart's div with its canvas size once dygraphs has drawn it. */
	function drawn(g) {
		const canvas = g.graphDiv.querySelector("canvas");
		if (canvas)
			g.graphDiv.setAttribute("data-xrlm-drawn", canvas.width + "x" + canvas.height);
	}

	/* Called by dygraphs after every draw, also inside its constructor. */
	function onDraw(c, g) {
		drawn(g);
		if (busy || !c.built || !c.g)
			return;
		const r = g.xAxisRange();
		show(c, r[0], r[1]);
		showAll(r[0], r[1], c);
	}

	function resetAll() {
		const n = frameCharts.length ? frameCharts[0].series[0].length : 0;
		showAll(0, Math.max(1, n - 1), null);
	}

	function wheelZoom(c, e) {
		e.preventDefault();
		const g = c.g;
		const n = c.series[0].length;
		const r = g.xAxisRange();
		const rect = g.graphDiv.getBoundingClientRect();
		const at = g.toDataXCoord(e.clientX - rect.left);
		const f = e.deltaY > 0 ? 1.25 : 0.8;
		let x0 = at - (at - r[0]) * f, x1 = at + (r[1] - at) * f;
		if (x1 - x0 < 10)
			return;
		x0 = Math.max(0, x0);
		x1 = Math.min(n - 1, x1);
		showAll(x0, x1, null);
	}

	function frameChart(title, cols, ylabel) {
		const series = cols.map(c => decode(c.data));
		const div = add(main, "div", "chart");
		const c = {series: series, built: null, g: null};
		const model = Object.assign({}, Dygraph.defaultInteractionModel);
		model.dblclick = () => resetAll();
		const n = series[0].length;
		c.g = new Dygraph(div, rowsFor(series, 0, n - 1, BUCKETS), {
			labels: ["frame"].concat(cols.map(x => x.name)),
			title: title,
			ylabel: ylabel,
			xlabel: "frame",
			strokeWidth: 1,
			legend: "always",
			labelsSeparateLines: false,
			interactionModel: model,
			drawCallback: g => onDraw(c, g),
			connectSeparatedPoints: false,
		});
		c.built = {lo: 0, hi: n - 1, width: Math.max(1, n - 1)};
		div.addEventListener("wheel", e => wheelZoom(c, e), {passive: false});
		frameCharts.push(c);
		chartCount++;
	}

	function byGroup(group) {
		return data.columns.filter(c => c.group === group && c.data && c.count > 0);
	}

	function frameSection() {
		const mainCols = byGroup("main").sort((a, b) => a.order - b.order);
		if (!mainCols.length || !data.frames)
			return;
		section("Frame by frame");
		const ctl = add(main, "p", "controls");
		const reset = add(ctl, "button", null, "reset zoom");
		reset.addEventListener("click", resetAll);
		const log = add(ctl, "label");
		const box = add(log, "input");
		box.type = "checkbox";
		log.appendChild(document.createTextNode(" logarithmic y axis"));
		box.addEventListener("change", () => frameCharts.forEach(c => c.g.updateOptions({logscale: box.checked})));
		add(ctl, "span", null, "  \u2014 drag to zoom, shift-drag to pan, wheel to zoom, double-click to reset." +
			" Wide views show each bucket's minimum and maximum, so no spike is lost.");
		mainCols.forEach(c => frameChart(c.label + " (" + c.name + ")", [c], "\u00b5s"));
		const phases = byGroup("phase").filter(c => c.name !== "target_total_us");
		if (phases.length)
			frameChart("the target's time per phase", phases, "\u00b5s");
		const app = byGroup("app");
		if (app.length)
			frameChart("the app's frame timeline", app, "\u00b5s");
	}

	/* ---- distributions ---- */

	function markers(c) {
		const marks = [["p50", c.median], ["p95", c.p95], ["p99", c.p99]];
		return function (ctx, area, g) {
			ctx.save();
			ctx.strokeStyle = "#c0392b";
			ctx.fillStyle = "#c0392b";
			ctx.font = "11px sans-serif";
			for (const m of marks) {
				const x = g.toDomXCoord(m[1]);
				if (!(x >= area.x && x <= area.x + area.w))
					continue;
				ctx.beginPath();
				ctx.moveTo(x, area.y);
				ctx.lineTo(x, area.y + area.h);
				ctx.stroke();
				ctx.fillText(m[0], x + 3, area.y + 12);
			}
			ctx.restore();
		};
	}

	function distributions() {
		const cols = data.columns.filter(c => c.cdf && c.count > 0).sort((a, b) => a.order - b.order);
		if (!cols.length)
			return;
		section("Distributions (p50, p95, p99 marked)");
		for (const c of cols) {
			const box = add(main, "div", "dist");
			const h = c.hist; /* none where the values' range is not finite */
			if (h) {
				const rows = h.counts.map((k, i) => [h.lo + i * h.width, k]);
				rows.push([h.lo + h.counts.length * h.width, 0]);
				const title = c.name + ": histogram" +
					(h.above ? " (" + h.above + " frames above " + num(h.lo + h.counts.length * h.width, 1) + " not shown)" : "");
				new Dygraph(add(box, "div"), rows, {
					labels: ["\u00b5s", "frames"], title: title, stepPlot: true, fillGraph: true,
					xlabel: "\u00b5s", underlayCallback: markers(c), drawCallback: drawn, legend: "follow",
				});
				chartCount++;
			}
			/* Logarithmic x: the tail (p99.9, the worst frames) stays readable. */
			new Dygraph(add(box, "div"), c.cdf, {
				labels: ["\u00b5s", "percentile"], title: c.name + ": cumulative distribution",
				xlabel: "\u00b5s (logarithmic)", valueRange: [0, 100.5], underlayCallback: markers(c),
				axes: {x: {logscale: c.min > 0}},
				drawCallback: drawn, legend: "follow",
			});
			chartCount++;
		}
	}

	/* ---- breakdowns ---- */

	function phases() {
		const cols = data.columns.filter(c => (c.group === "phase" || c.group === "app") && c.count > 0);
		if (!cols.length)
			return;
		section("Per phase");
		const total = data.columns.find(c => c.name === "target_total_us");
		const rows = cols.map(c => [c.name, c.label, num(c.mean, 3), num(c.median, 3), num(c.p99, 3),
			num(c.max, 3), c.group === "phase" && total && total.mean > 0 && c.name !== "target_total_us"
				? num(100 * c.mean / total.mean, 1) + " %" : ""]);
		table(main, ["column", "what", "mean", "median", "p99", "max", "share of target total"], rows, 2);
	}

	function functions() {
		const f = data.functions;
		if (!f)
			return;
		section("Per function (" + f.source + ")");
		const share = f.columns.indexOf("share_pct");
		const rows = f.rows.map(r => {
			const cells = r.map(v => (v === null ? "" : String(v)));
			if (share >= 0 && typeof r[share] === "number") {
				const bar = el("span", "bar");
				bar.style.width = Math.max(0, Math.min(100, r[share])) * 1.2 + "px";
				cells.push(bar);
			}
			return cells;
		});
		table(main, f.columns.concat(share >= 0 ? ["share"] : []), rows, 2);
	}

	/*
	 * Opened as page.html#selftest, the page checks its own decimation
	 * (the tests read the result from <html data-xrlm-selftest>): the
	 * overview keeps the series' maximum, and a zoom to 100 frames shows
	 * every frame with its exact value.
	 */
	function selfTest() {
		const c = frameCharts[0];
		if (!c)
			return "no frame chart";
		const s = c.series[0];
		let max = -Infinity, shownMax = -Infinity, exact = true;
		s.forEach(v => { if (v > max) max = v; });
		for (let r = 0; r < c.g.numRows(); r++)
			shownMax = Math.max(shownMax, c.g.getValue(r, 1));
		const overview = c.g.numRows();
		showAll(1000, 1100, null);
		for (let r = 0; r < c.g.numRows(); r++) {
			const x = c.g.getValue(r, 0), v = c.g.getValue(r, 1);
			if (x !== r + c.built.lo || !(v === s[x] || (v === null && !(s[x] === s[x]))))
				exact = false;
		}
		const range = c.g.xAxisRange();
		return "overview=" + overview + " max=" + (shownMax === max) + " zoom=" + c.g.numRows() +
			" exact=" + exact + " range=" + range[0] + "-" + range[1];
	}

	try {
		data = JSON.parse(document.getElementById("xrlm-data").textContent);
		header();
		summary();
		frameSection();
		distributions();
		phases();
		functions();
		metadata();
		const ms = Math.round(performance.now());
		root.setAttribute("data-xrlm-ms", String(ms));
		root.setAttribute("data-xrlm-ready", String(chartCount));
		console.info("xrlm report ready: " + chartCount + " charts, " + data.frames + " frames, " + ms + " ms");
		if (location.hash === "#selftest")
			root.setAttribute("data-xrlm-selftest", selfTest());
	} catch (e) {
		root.setAttribute("data-xrlm-error", String(e && e.stack || e));
		add(main, "p", "error", "The report could not be drawn: " + e);
		throw e;
	}
})();
