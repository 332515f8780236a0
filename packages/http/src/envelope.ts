/** The response envelope (SPEC 2.1): `{success, data}` or `{success, error}`. */
import type { Response } from 'express';

/** Sends data with the status the handler set (200 unless it chose another). */
export function sendData(res: Response, data: unknown): void {
  res.json({ success: true, data });
}

export function sendError(res: Response, status: number, message: string): void {
  res.status(status).json({ success: false, error: message });
}
