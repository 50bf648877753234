// One POST to a webhook receiver, connected only to addresses the URL policy checked
// (./url-policy.ts): node's http client asks the `lookup` below for the host's addresses, and it
// answers with the checked ones instead of resolving again. No redirect is followed and the
// response body is never read.
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedTarget } from "./url-policy";

function pinnedLookup(addresses: ResolvedTarget[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  }) as LookupFunction;
}

/** The receiver's status code; rejects when there is none (no connection, a timeout). */
export function postPinned(url: string, addresses: ResolvedTarget[], headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
  const options: RequestOptions = {
    method: "POST",
    headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    lookup: pinnedLookup(addresses),
    signal: AbortSignal.timeout(timeoutMs),
  };
  const send = new URL(url).protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, options, (res) => {
      res.resume();
      res.on("error", () => {});
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", reject);
    req.end(body);
  });
}
