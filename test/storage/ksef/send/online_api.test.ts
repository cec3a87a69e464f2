import assert from "node:assert/strict";
import { test } from "node:test";
import { answerError, retryAfterSeconds, type KsefAnswer } from "../../../../storage/ksef/send/online_api.ts";

const answer = (status: number, body: unknown): KsefAnswer => ({ status, body: new TextEncoder().encode(JSON.stringify(body)) });

test("answerError() reads Problem Details and the deprecated ExceptionResponse alike", () => {
  assert.deepEqual(answerError(answer(400, { exception: { exceptionDetailList: [{ exceptionCode: 21405, exceptionDescription: "Błąd walidacji danych wejściowych.", details: ["formCode"] }] } })),
    { code: "KSEF_21405", message: "Błąd walidacji danych wejściowych.", details: ["formCode"] });
  assert.deepEqual(answerError(answer(400, {
    title: "Bad Request", status: 400, detail: "Żądanie jest nieprawidłowe.", instance: "", timestamp: "2026-11-25T00:00:00Z", traceId: "t",
    errors: [{ code: 21405, description: "Błąd walidacji danych wejściowych.", details: ["Wskazany kod formularza nie jest wspierany."] }],
  })), { code: "KSEF_21405", message: "Błąd walidacji danych wejściowych.", details: ["Wskazany kod formularza nie jest wspierany."] });
  assert.deepEqual(answerError(answer(403, { title: "Forbidden", status: 403, detail: "Brak uprawnień." })), { code: "KSEF_403", message: "Forbidden: Brak uprawnień.", details: [] });
  assert.equal(answerError({ status: 404, body: new Uint8Array() }).code, "KSEF_404");
});

test("retryAfterSeconds() takes seconds or an HTTP date, 1 s when absent", () => {
  assert.equal(retryAfterSeconds("7", 0), 7);
  assert.equal(retryAfterSeconds(null, 0), 1);
  assert.equal(retryAfterSeconds(new Date(10_000).toUTCString(), 2_000), 8);
});
