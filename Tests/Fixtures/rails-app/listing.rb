# frozen_string_literal: true

require "rack/utils"

# Turns an index request's query into a relation: column filters (an empty value
# means NULL, as ActiveResource sends nil), `updated_since` / `since_id`, `order`,
# `limit`/`offset` (ActiveResource) or `page`/`per_page` with RFC 8288 Link headers.
class Listing
  # A query parameter that cannot be honoured (answered with 400).
  class Invalid < StandardError; end

  RESERVED = %w[limit offset page per_page order format updated_since since_id].freeze
  DEFAULT_PER_PAGE = 25
  TERM = /\A\s*(\w+)(?:\s+(asc|desc))?\s*\z/i.freeze

  attr_reader :headers

  # `query` is the request's query parameters, `url` the request URL without its query.
  def initialize(relation, query, url)
    @relation = relation
    @query = query
    @url = url
    @headers = {}
  end

  # The records to render; fills `headers` (X-Total-Count, and Link when paging by page).
  def records
    relation = ordered(filtered(@relation))
    total = relation.count
    @headers["X-Total-Count"] = total.to_s
    paged(relation, total)
  end

  private

  def columns
    @relation.klass.column_names
  end

  def filtered(relation)
    relation = since(relation)
    @query.each do |key, value|
      next if RESERVED.include?(key) || !columns.include?(key)
      unless value.is_a?(String) || (value.is_a?(Array) && value.all?(String))
        raise Invalid, "filter '#{key}' must be a value or a list of values"
      end

      relation = relation.where(key => value == "" ? nil : value)
    end
    relation
  end

  # `updated_since=<ISO 8601>`: updated_at >= it; `since_id=<n>`: id > n (incremental fetches).
  def since(relation)
    if @query.key?("updated_since")
      time = Time.iso8601(@query["updated_since"].to_s) rescue raise(Invalid, "'updated_since' must be an ISO 8601 time")
      relation = relation.where("updated_at >= ?", time)
    end
    relation = relation.where("id > ?", integer("since_id", nil, minimum: 0)) if @query.key?("since_id")
    relation
  end

  def ordered(relation)
    terms = @query.fetch("order", "").to_s.split(",", -1).map { |term| order_term(term) }
    terms << %w[id asc] unless terms.any? { |column, _| column == "id" }
    terms.reduce(relation) { |result, (column, direction)| result.order(column => direction) }
  end

  def order_term(term)
    match = TERM.match(term)
    raise Invalid, "order term '#{term.strip}' must be 'column [asc|desc]'" unless match
    unless columns.include?(match[1])
      raise Invalid, "unknown column '#{match[1]}' in order (columns: #{columns.join(', ')})"
    end

    [match[1], (match[2] || "asc").downcase]
  end

  def paged(relation, total)
    return limited(relation) unless @query.key?("page") || @query.key?("per_page")
    raise Invalid, "use either limit/offset or page/per_page" if @query.key?("limit") || @query.key?("offset")

    page = integer("page", 1, minimum: 1)
    per_page = integer("per_page", DEFAULT_PER_PAGE, minimum: 1)
    @headers["Link"] = links(page, per_page, total)
    relation.offset((page - 1) * per_page).limit(per_page)
  end

  def limited(relation)
    relation = relation.limit(integer("limit", nil, minimum: 0)) if @query.key?("limit")
    relation = relation.offset(integer("offset", nil, minimum: 0)) if @query.key?("offset")
    relation
  end

  def integer(key, default, minimum:)
    return default unless @query.key?(key)

    value = @query[key]
    unless value.is_a?(String) && value.match?(/\A\d+\z/) && value.to_i >= minimum
      raise Invalid, "'#{key}' must be an integer >= #{minimum}"
    end

    value.to_i
  end

  def links(page, per_page, total)
    last = [(total + per_page - 1) / per_page, 1].max
    rels = []
    rels << ["prev", page - 1] if page > 1
    rels << ["next", page + 1] if page < last
    rels << ["last", last] << ["first", 1]
    rels.map { |rel, number| %(<#{page_url(number, per_page)}>; rel="#{rel}") }.join(", ")
  end

  def page_url(number, per_page)
    query = @query.merge("page" => number.to_s, "per_page" => per_page.to_s)
    "#{@url}?#{Rack::Utils.build_nested_query(query)}"
  end
end
