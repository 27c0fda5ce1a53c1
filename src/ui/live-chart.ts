// One live line chart (uPlot) of the last few minutes. It keeps a bounded window of points,
// follows its container's width (phones included: the canvas never overflows the page) and
// says its latest values in text next to it, for screen readers and for anyone who does not
// read charts.

import uPlot from 'uplot';
import { h } from './dom.js';

/** LineSpec names one line of a chart. */
export interface LineSpec {
  readonly label: string;
  readonly color: string;
}

/** ChartScale says how a chart writes its values and what it spans. */
export interface ChartScale {
  readonly format: (value: number) => string;
  /** floor is the least top of the value axis, so an idle chart shows a sensible axis rather than a hair's breadth. */
  readonly floor: number;
  /** windowSeconds is the time the chart spans, ending at its newest point. */
  readonly windowSeconds: number;
}

/** CHART_POINTS is how many points a chart keeps (at one scrape every few seconds: minutes). */
export const CHART_POINTS = 60;

const HEIGHT = 180;

/** LiveChart draws lines over time and keeps their latest values in words. */
export class LiveChart {
  readonly element: HTMLElement;
  private readonly plotBox: HTMLElement;
  /** readings hold each line's latest value in words, next to its colour: the chart's legend. */
  private readonly readings: HTMLElement[];
  private readonly times: number[] = [];
  private readonly values: Array<Array<number | null>>;
  private plot: uPlot | undefined;

  constructor(
    title: string,
    private readonly lines: readonly LineSpec[],
    private readonly scale: ChartScale,
  ) {
    this.values = lines.map(() => []);
    this.plotBox = h('div', { class: 'chart-plot', role: 'img', 'aria-label': `${title}, chart over the last minutes` });
    this.readings = lines.map(() => h('span', {}, 'waiting for two scrapes of /metrics'));
    const legend = h('ul', { class: 'chart-legend' }, ...lines.map((line, i) => {
      const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.backgroundColor = line.color; // CSSOM, which the page's style-src policy allows
      return h('li', {}, swatch, `${line.label}: `, this.readings[i]);
    }));
    this.element = h('figure', { class: 'chart' }, h('figcaption', {}, title), this.plotBox, legend);
    // The width is known only once the chart is on the page, and changes with the window.
    new ResizeObserver(() => this.fit()).observe(this.plotBox);
  }

  /** push adds a point (null: no value at that time, drawn as a gap). */
  push(time: number, points: ReadonlyArray<number | null>): void {
    this.times.push(time);
    this.values.forEach((series, i) => series.push(points[i] ?? null));
    if (this.times.length > CHART_POINTS) {
      this.times.shift();
      for (const series of this.values) series.shift();
    }
    this.readings.forEach((reading, i) => {
      const value = points[i];
      reading.textContent = value === null || value === undefined ? 'none in the last interval' : this.scale.format(value);
    });
    this.element.dataset['points'] = String(this.times.length);
    this.plot?.setData(this.data());
  }

  private data(): uPlot.AlignedData {
    return [this.times, ...this.values];
  }

  private fit(): void {
    const width = Math.floor(this.plotBox.clientWidth);
    if (width <= 0) return; // hidden (another view is shown): fitted when shown again
    if (this.plot === undefined) this.plot = new uPlot(this.options(width), this.data(), this.plotBox);
    else this.plot.setSize({ width, height: HEIGHT });
  }

  private options(width: number): uPlot.Options {
    const { format, floor, windowSeconds } = this.scale;
    return {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: true, points: { show: false } },
      scales: {
        // The newest minutes, however few points there are yet (uPlot would stretch one point over years).
        // A little room on the right keeps the newest point's dot whole.
        x: { time: true, range: (_plot, _min, max) => [(max ?? Date.now() / 1000) - windowSeconds, (max ?? Date.now() / 1000) + windowSeconds / 60] },
        y: { range: (_plot, _min, max) => [0, Math.max((max ?? 0) * 1.1, floor)] },
      },
      // Times of day only: the charts span minutes, and uPlot's own labels add dates.
      axes: [{ space: 70, values: (_plot, ticks) => ticks.map((tick) => new Date(tick * 1000).toLocaleTimeString()) }, { values: (_plot, ticks) => ticks.map(format), size: 70 }],
      // Dots as well as lines: the lag has a value only for intervals in which something was replicated.
      series: [{}, ...this.lines.map((line) => ({ label: line.label, stroke: line.color, width: 2, spanGaps: false, points: { show: true, size: 5, fill: line.color } }))],
    };
  }
}
