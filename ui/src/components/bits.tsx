import type { ComponentChildren } from "preact";
import { PRIORITIES } from "../priorities";
import type { Claim, Tag } from "../types";

const PRIORITY_GLYPHS: Record<number, string> = { 1: "↓", 2: "–", 3: "↑", 4: "‼" };

export function PriorityBadge(props: { priority: number; compact?: boolean }) {
  const label = PRIORITIES[props.priority] ?? String(props.priority);
  return (
    <span class={`prio prio-${props.priority}`} title={`Priority: ${label}`}>
      <span aria-hidden="true">{PRIORITY_GLYPHS[props.priority]}</span>
      {props.compact && props.priority === 2 ? null : <span class="prio-label">{label}</span>}
    </span>
  );
}

/** A tag: its colour as a dot (never as text colour, so contrast holds), long names truncated. */
export function TagChip(props: { tag: Tag; children?: ComponentChildren }) {
  return (
    <span class="tag" title={props.tag.name}>
      <TagDot color={props.tag.color} />
      <span class="tag-name">{props.tag.name}</span>
      {props.children}
    </span>
  );
}

/** Colour dots are SVG so the CSP (no inline styles) still allows a per-tag colour. */
export function TagDot(props: { color: string }) {
  if (!props.color) return <span class="tag-dot tag-dot-none" aria-hidden="true" />;
  return (
    <svg class="tag-dot" viewBox="0 0 10 10" aria-hidden="true">
      <circle cx="5" cy="5" r="5" fill={props.color} />
    </svg>
  );
}

export function ClaimBadge(props: { claim: Claim }) {
  const until = formatTime(props.claim.expiresAt);
  return (
    <span
      class="badge badge-claim"
      title={`Claimed by ${props.claim.actor} since ${formatDateTime(props.claim.claimedAt)} until ${formatDateTime(props.claim.expiresAt)}`}
    >
      ● {props.claim.actor} · until {until}
    </span>
  );
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString([], {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

export function relativeTime(iso: string): string {
  const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return formatDateTime(iso);
}
