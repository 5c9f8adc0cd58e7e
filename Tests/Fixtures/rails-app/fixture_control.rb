# frozen_string_literal: true

require "json"

# Rack middleware in front of the app: logs every request as one JSON line
# {method, path, body, status} (with idempotency_key when the request has one,
# and replayed: true for an answer IdempotencyKeys repeated) and serves the test-control endpoints
# GET /_requests, DELETE /_requests, POST /_reset and POST /_bulk_tasks?count=N (none of them logged).
class FixtureControl
  def initialize(app, log_path)
    @app = app
    @log_path = log_path
    @mutex = Mutex.new
    File.write(@log_path, "")
  end

  def call(env)
    request = Rack::Request.new(env)
    route = request.path_info.delete_suffix(".json")
    case [request.request_method, route]
    when ["GET", "/_requests"] then json(200, entries)
    when ["DELETE", "/_requests"] then clear && [204, {}, []]
    when ["POST", "/_reset"] then reset && [204, {}, []]
    when ["POST", "/_bulk_tasks"] then bulk_tasks(request.params["count"].to_i) && [204, {}, []]
    else
      route.start_with?("/_") ? json(404, { status: 404, error: "Not Found" }) : logged(request, env)
    end
  end

  private

  def logged(request, env)
    body = request.body ? request.body.read.to_s : ""
    request.body&.rewind
    status, headers, response = @app.call(env)
    entry = { method: request.request_method, path: request.fullpath, body: text(body), status: status.to_i }
    entry[:idempotency_key] = env[IdempotencyKeys::HEADER] if env[IdempotencyKeys::HEADER]
    entry[:replayed] = true if headers["Idempotent-Replayed"]
    append(**entry)
    [status, headers, response]
  end

  def text(bytes)
    bytes.dup.force_encoding(Encoding::UTF_8).scrub
  end

  def append(entry)
    line = "#{JSON.generate(entry)}\n"
    @mutex.synchronize { File.open(@log_path, "a") { |file| file.write(line) } }
  end

  def entries
    @mutex.synchronize { File.readlines(@log_path, chomp: true) }.reject(&:empty?).map { |line| JSON.parse(line) }
  end

  def clear
    @mutex.synchronize { File.write(@log_path, "") }
    true
  end

  def reset
    Rails.application.executor.wrap { Seeds.reset! }
    IdempotencyKeys.clear!
    clear
  end

  # Adds `count` tasks ("Bulk 1", ...) after the seed's, in one statement, for tests that need many objects.
  def bulk_tasks(count)
    Rails.application.executor.wrap do
      time = Time.utc(2024, 2, 1)
      Task.insert_all!((1..count).map { |n| { title: "Bulk #{n}", done: false, created_at: time, updated_at: time } })
    end
    true
  end

  def json(status, value)
    [status, { "Content-Type" => "application/json; charset=utf-8" }, [JSON.generate(value)]]
  end
end
