/**
 * The Lua scripts of the Redis task store: each transition is one script, so it is atomic, and
 * each touches only the keys it is given (one task's hash, or one repeat key), so a Redis Cluster
 * runs it on the one node holding that slot. Needs Redis 6.2 or later (XAUTOCLAIM, for the
 * executor), where scripts replicate their effects: TIME before a write is allowed.
 *
 * A task is a hash (KEYS[1]); ARGV[1] is its channel. Its fields:
 * - `taskId`, `principal`, `tool`, `args` and `capabilities` (JSON), `ttlMs` (absent: none),
 *   `pollIntervalMs`, `rerunnable` (`1`/`0`): written once, by CREATE;
 * - `status`, `statusMessage`, `createdAt` and `lastUpdatedAt` (epoch ms, Redis' clock),
 *   `runner`, `attempts`, `result` and `error` (JSON), `issuedCount`;
 * - `issued:<key>` (the order the key was asked in), `request:<key>` (a waiting question, JSON),
 *   `response:<key>` (an answer, JSON).
 * The user's JSON is kept as the text it came as: the scripts never decode it (Lua's cjson would
 * round numbers to 14 digits and turn `[]` into `{}`).
 */

/** Shared by the task scripts: the clock, terminal statuses, dropping waiting questions, the end of every transition. */
const PRELUDE = `
local key = KEYS[1]
local function now()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function is_terminal(status)
  return status == 'completed' or status == 'cancelled' or status == 'failed'
end
local function drop_waiting_requests()
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, 8) == 'request:' then redis.call('HDEL', key, field) end
  end
end
-- Stamps the transition and publishes the whole task (the flat field list, as a JSON array of
-- strings): a watcher sees each state in order, without reading it again.
local function transitioned()
  redis.call('HSET', key, 'lastUpdatedAt', now())
  local task = redis.call('HGETALL', key)
  redis.call('PUBLISH', ARGV[1], cjson.encode(task))
  return task
end
`;

/**
 * Creates the task unless one of that id exists. ARGV[2]: the TTL in ms, or '' for none;
 * ARGV[3…]: the written-once fields, as field/value pairs. Returns `{1, fields}` when created,
 * `{0, fields}` when the id was taken (a create retried). Not a transition: no one watches a task
 * before it exists, so nothing is published.
 */
export const CREATE_TASK = `${PRELUDE}
if redis.call('EXISTS', key) == 1 then return {0, redis.call('HGETALL', key)} end
local time = now()
redis.call('HSET', key, 'status', 'working', 'createdAt', time, 'lastUpdatedAt', time,
  'attempts', 0, 'issuedCount', 0, unpack(ARGV, 3))
local task = redis.call('HGETALL', key)
if ARGV[2] ~= '' then redis.call('PEXPIRE', key, ARGV[2]) end
return {1, task}
`;

/**
 * Gives the task to the run ARGV[2]; ARGV[3] is '1' to take it over from another run. Refused
 * (nil) for a missing or terminal task, or one another run holds. Waiting questions are dropped:
 * the run asks again. Returns the fields.
 */
export const CLAIM_TASK = `${PRELUDE}
local status = redis.call('HGET', key, 'status')
if not status or is_terminal(status) then return nil end
local holder = redis.call('HGET', key, 'runner')
if holder and holder ~= ARGV[2] and ARGV[3] ~= '1' then return nil end
drop_waiting_requests()
redis.call('HSET', key, 'status', 'working', 'runner', ARGV[2])
redis.call('HINCRBY', key, 'attempts', 1)
return transitioned()
`;

/**
 * The run ARGV[2] asks the questions ARGV[3…] (key/JSON pairs). Refused (0) for a missing or
 * terminal task, a run that does not hold it, or a key asked before; all or none are added.
 * Returns 1.
 */
export const ASK_TASK = `${PRELUDE}
local status = redis.call('HGET', key, 'status')
if not status or is_terminal(status) then return 0 end
if redis.call('HGET', key, 'runner') ~= ARGV[2] then return 0 end
for index = 3, #ARGV, 2 do
  if redis.call('HEXISTS', key, 'issued:' .. ARGV[index]) == 1 then return 0 end
end
if #ARGV < 3 then return 1 end
for index = 3, #ARGV, 2 do
  local order = redis.call('HINCRBY', key, 'issuedCount', 1)
  redis.call('HSET', key, 'issued:' .. ARGV[index], order, 'request:' .. ARGV[index], ARGV[index + 1])
end
redis.call('HSET', key, 'status', 'input_required')
transitioned()
return 1
`;

/**
 * The client's answers ARGV[2…] (key/JSON pairs): those to waiting questions are kept, the rest
 * ignored; with none left waiting, back to `working`. Returns the fields (nil for a missing task);
 * nothing kept is no transition.
 */
export const ANSWER_TASK = `${PRELUDE}
if redis.call('EXISTS', key) == 0 then return nil end
local kept = false
for index = 2, #ARGV, 2 do
  local waiting = 'request:' .. ARGV[index]
  if redis.call('HDEL', key, waiting) == 1 then
    redis.call('HSET', key, 'response:' .. ARGV[index], ARGV[index + 1])
    kept = true
  end
end
if not kept then return redis.call('HGETALL', key) end
local still_waiting = false
for _, field in ipairs(redis.call('HKEYS', key)) do
  if string.sub(field, 1, 8) == 'request:' then still_waiting = true end
end
if not still_waiting then redis.call('HSET', key, 'status', 'working') end
return transitioned()
`;

/**
 * Ends the task. ARGV[2]: '1' when ARGV[3] names the run that must hold it ('0': the reaper);
 * ARGV[4]: the status; ARGV[5], ARGV[6]: the field (`result` or `error`) and its JSON; ARGV[7]:
 * '1' when ARGV[8] is the status message. Refused (0) for a missing or terminal task, or a run
 * that lost it. Returns 1.
 */
export const SETTLE_TASK = `${PRELUDE}
local status = redis.call('HGET', key, 'status')
if not status or is_terminal(status) then return 0 end
if ARGV[2] == '1' and redis.call('HGET', key, 'runner') ~= ARGV[3] then return 0 end
drop_waiting_requests()
redis.call('HDEL', key, 'statusMessage')
redis.call('HSET', key, 'status', ARGV[4], ARGV[5], ARGV[6])
if ARGV[7] == '1' then redis.call('HSET', key, 'statusMessage', ARGV[8]) end
transitioned()
return 1
`;

/**
 * Cancels the task unless it is terminal: ARGV[2] is '1' when ARGV[3] is the status message.
 * Returns the fields (nil for a missing task); a terminal task is returned as it is.
 */
export const CANCEL_TASK = `${PRELUDE}
local status = redis.call('HGET', key, 'status')
if not status then return nil end
if is_terminal(status) then return redis.call('HGETALL', key) end
drop_waiting_requests()
redis.call('HDEL', key, 'statusMessage')
redis.call('HSET', key, 'status', 'cancelled')
if ARGV[2] == '1' then redis.call('HSET', key, 'statusMessage', ARGV[3]) end
return transitioned()
`;

/**
 * Maps a repeat key (KEYS[1], its own slot) to the task ARGV[1] for ARGV[2] ms, unless it maps to
 * another task already: then returns that task's id. ARGV[3] is an id the caller found mapped but
 * gone (past its TTL), which may be replaced; '' for none. Returns nil when the key is ours.
 */
export const CLAIM_REPEAT = `
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[3] then return current end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return nil
`;
