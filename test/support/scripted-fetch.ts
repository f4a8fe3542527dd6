/** A `fetch` that records each request's JSON body and answers with the next scripted body (the last one again after that). */
export function scriptedFetch(...answers: unknown[]) {
  const requests: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    requests.push(JSON.parse(String(init?.body ?? '{}')));
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, requests };
}
