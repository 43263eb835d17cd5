import assert from "node:assert/strict";
import type { TestServer } from "../helpers/server.js";
import { boardWithLanes, newTicket } from "../helpers/tickets.js";

// The requests the asks test files (asks-*.test.ts) repeat, each asserting its own success.

export function askRequests(api: TestServer) {
  async function ticket(title = "asked about", board?: { boardId: number; laneIds: number[] }) {
    const where = board ?? (await boardWithLanes(api, "Asks"));
    return newTicket(api, where.boardId, where.laneIds[0], title);
  }

  async function ask(ticketId: number, body: Record<string, unknown> = {}): Promise<any> {
    const response = await api.post(`/api/tickets/${ticketId}/asks`, {
      actor: "agent-1",
      question: "Which way?",
      ...body,
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  }

  async function asksOf(ticketId: number): Promise<any[]> {
    const response = await api.get(`/api/tickets/${ticketId}/asks`);
    assert.equal(response.status, 200, response.text);
    return response.body.asks;
  }

  async function inbox(query = ""): Promise<any[]> {
    const response = await api.get(`/api/asks${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body.asks;
  }

  const answerAsk = (askId: number, body: Record<string, unknown>) =>
    api.post(`/api/asks/${askId}/answer`, body);
  const withdrawAsk = (askId: number, body: Record<string, unknown>) =>
    api.post(`/api/asks/${askId}/withdraw`, body);

  async function activityOf(ticketId: number): Promise<any[]> {
    const response = await api.get(`/api/tickets/${ticketId}/activity`);
    assert.equal(response.status, 200, response.text);
    return response.body.activity;
  }

  return { activityOf, answerAsk, ask, asksOf, inbox, ticket, withdrawAsk };
}
