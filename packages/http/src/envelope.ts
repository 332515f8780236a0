/** The response envelope (SPEC 2.1): `{success, data}` or `{success, error}`. */
import type { Response } from 'express';

export function sendData(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ success: true, data });
}

export function sendError(res: Response, status: number, message: string): void {
  res.status(status).json({ success: false, error: message });
}
