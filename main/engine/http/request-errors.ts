/**
 * What fastify itself refuses about a request (a malformed or oversized body: a 4xx) answered in
 * the API's own error shape, so a client parses one shape; anything else is answered as fastify
 * would. Each API says how its errors look.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

export function answerRequestErrors(app: FastifyInstance, answer: (reply: FastifyReply, status: number, message: string) => FastifyReply): void {
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    return status >= 400 && status < 500 ? answer(reply, status, error.message) : reply.send(error);
  });
}
