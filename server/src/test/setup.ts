// Node 20 has no global WebSocket; @colyseus/core and the SDK read it.
import { WebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
