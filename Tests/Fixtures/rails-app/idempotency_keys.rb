# frozen_string_literal: true

require "json"

# Rack middleware in front of the app: a POST carrying an Idempotency-Key header
# runs once. The first 2xx answer (status, headers including Location, body) is
# kept under its key; a later POST with the same key gets that answer again
# without running the action, as Stripe does. A key reused for another path
# answers 422. Answers other than 2xx are not kept (the action changed nothing),
# so the same key may be tried again. POST /_reset forgets every key.
class IdempotencyKeys
  HEADER = "HTTP_IDEMPOTENCY_KEY"

  def self.answers
    @answers ||= {}
  end

  def self.mutex
    @mutex ||= Mutex.new
  end

  def self.clear!
    mutex.synchronize { answers.clear }
  end

  def initialize(app)
    @app = app
  end

  def call(env)
    key = env[HEADER]
    return @app.call(env) if key.nil? || key.empty? || env["REQUEST_METHOD"] != "POST"

    path = env["PATH_INFO"]
    self.class.mutex.synchronize do
      kept = self.class.answers[key]
      next replay(kept, path) if kept

      status, headers, body = @app.call(env)
      text = +""
      body.each { |part| text << part }
      body.close if body.respond_to?(:close)
      self.class.answers[key] = { path: path, status: status, headers: headers.to_h, body: text } if status.to_i.between?(200, 299)
      [status, headers, [text]]
    end
  end

  private

  def replay(kept, path)
    if kept[:path] != path
      return [422, { "Content-Type" => "application/json; charset=utf-8" },
              [JSON.generate({ error: "Idempotency-Key was used for #{kept[:path]}" })]]
    end
    [kept[:status], kept[:headers].merge("Idempotent-Replayed" => "true"), [kept[:body]]]
  end
end
