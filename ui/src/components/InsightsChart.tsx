import { useLayoutEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

// One uPlot chart sized to its box. uPlot draws on a canvas and positions its legend and cursor
// through the CSSOM (element.style), never style attributes or <style> elements, so it runs under
// the UI's `style-src 'self'`; its stylesheet is a file of the lazily loaded chunk.

/** Colours resolved for the canvas (which cannot read CSS variables or light-dark()). */
export interface Palette {
  series: string[];
  text: string;
  grid: string;
  surface: string;
  p50: string;
  p85: string;
  p95: string;
}

const SERIES_COUNT = 8;

/**
 * Reads the `--chart-*` colours of insights.css as the page resolves them now (light or dark):
 * a probe element's computed `color` is a plain rgb() the canvas understands.
 */
export function readPalette(root: HTMLElement): Palette {
  const probe = document.createElement("span");
  probe.hidden = true;
  root.append(probe);
  const resolve = (name: string) => {
    probe.style.color = `var(--${name})`;
    return getComputedStyle(probe).color;
  };
  const palette = {
    series: Array.from({ length: SERIES_COUNT }, (_, index) => resolve(`chart-${index + 1}`)),
    text: resolve("text-2"),
    grid: resolve("chart-grid"),
    surface: resolve("surface"),
    p50: resolve("chart-p50"),
    p85: resolve("chart-p85"),
    p95: resolve("chart-p95"),
  };
  probe.remove();
  return palette;
}

export const seriesColour = (palette: Palette, index: number) =>
  palette.series[index % palette.series.length] as string;

/** Axes in the page's text and grid colours. */
export function axis(palette: Palette, extra: Partial<uPlot.Axis> = {}): uPlot.Axis {
  return {
    stroke: palette.text,
    grid: { stroke: palette.grid, width: 1 },
    ticks: { stroke: palette.grid, width: 1 },
    font: "12px system-ui, sans-serif",
    labelFont: "12px system-ui, sans-serif",
    ...extra,
  };
}

export interface ChartSpec {
  options: Omit<uPlot.Options, "width" | "height">;
  data: uPlot.AlignedData;
}

export function Chart(props: {
  label: string;
  spec: ChartSpec;
  height: number;
  /** A click on the plot: the data index nearest the cursor. */
  onPick?: (index: number) => void;
  onDrawn?: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useRef(props.onPick);
  pick.current = props.onPick;

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(200, Math.floor(element.clientWidth));
    const plot = new uPlot(
      { ...props.spec.options, width: width(), height: props.height },
      props.spec.data,
      element,
    );
    const onClick = () => {
      const index = plot.cursor.idx;
      if (index !== null && index !== undefined) pick.current?.(index);
    };
    plot.over.addEventListener("click", onClick);
    const observer = new ResizeObserver(() => {
      if (plot.width !== width()) plot.setSize({ width: width(), height: props.height });
    });
    observer.observe(element);
    props.onDrawn?.();
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [props.spec, props.height]);

  return <div class="insights-chart" role="img" aria-label={props.label} ref={box} />;
}
