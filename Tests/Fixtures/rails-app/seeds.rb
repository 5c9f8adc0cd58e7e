# frozen_string_literal: true

require "bigdecimal"

# The deterministic seed (documented in README.md): 25 people, 60 projects, 150 tasks.
module Seeds
  PEOPLE = [
    ["Ada", "Lovelace", "ada.lovelace@example.com"],
    ["Alan", "Turing", "alan.turing@example.com"],
    ["Grace", "Hopper", "grace.hopper@example.com"],
    ["Edsger", "Dijkstra", "edsger.dijkstra@example.com"],
    ["Barbara", "Liskov", "barbara.liskov@example.com"],
    ["Donald", "Knuth", "donald.knuth@example.com"],
    ["Margaret", "Hamilton", "margaret.hamilton@example.com"],
    ["Dennis", "Ritchie", "dennis.ritchie@example.com"],
    ["Ken", "Thompson", "ken.thompson@example.com"],
    ["Frances", "Allen", "frances.allen@example.com"],
    ["Alan", "Kay", "alan.kay@example.com"],
    ["Radia", "Perlman", "radia.perlman@example.com"],
    ["Tim", "Berners-Lee", nil],
    ["Niklaus", "Wirth", "niklaus.wirth@example.com"],
    ["Adele", "Goldberg", "adele.goldberg@example.com"],
    ["Bjarne", "Stroustrup", "bjarne.stroustrup@example.com"],
    ["Guido", "van Rossum", "guido.vanrossum@example.com"],
    ["Yukihiro", "Matsumoto", "yukihiro.matsumoto@example.com"],
    ["Sophie", "Wilson", "sophie.wilson@example.com"],
    ["Lynn", "Conway", "lynn.conway@example.com"],
    ["José", "Valim", "jose.valim@example.com"],
    ["Karen", "Spärck Jones", "karen.sparckjones@example.com"],
    ["Ada", "Yonath", "ada.yonath@example.com"],
    ["Shafi", "Goldwasser", "shafi.goldwasser@example.com"],
    ["David", "Heinemeier Hansson", "david.hansson@example.com"]
  ].freeze

  ADMIN_IDS = [5, 10, 15, 20, 25].freeze
  NO_BIRTHDAY_IDS = [7, 19].freeze
  EPOCH = Time.utc(2024, 1, 1)

  module_function

  # Empties the tables, restarts their id sequences and inserts the seed.
  def reset!
    ActiveRecord::Base.transaction do
      [Task, Project, Person].each(&:delete_all)
      ActiveRecord::Base.connection.execute("DELETE FROM sqlite_sequence")
      Person.insert_all!(people)
      Project.insert_all!(projects)
      Task.insert_all!(tasks)
    end
  end

  def stamp(day, id)
    time = EPOCH + ((day * 86_400) + (id * 60))
    { created_at: time, updated_at: time }
  end

  def people
    PEOPLE.each_with_index.map do |(first, last, email), index|
      id = index + 1
      admin = ADMIN_IDS.include?(id)
      born = NO_BIRTHDAY_IDS.include?(id) ? nil : Date.new(1950, 1, 1) + (id * 397)
      { id: id, first_name: first, last_name: last, email: email, born_on: born,
        admin: admin, type: admin ? "Admin" : nil }.merge(stamp(0, id))
    end
  end

  def project_owner(id)
    return 1 if id <= 12
    return nil if id == 60

    2 + ((id - 13) % 23)
  end

  def projects
    (1..60).map do |id|
      budget = (id % 10).zero? ? nil : BigDecimal(id * 1250) + (BigDecimal(id % 4 * 25) / 100)
      starts = (id % 15).zero? ? nil : Date.new(2024, 1, 1) + ((id - 1) * 7)
      { id: id, name: format("Project %02d", id), budget: budget, person_id: project_owner(id),
        starts_on: starts, archived: (id % 6).zero? }.merge(stamp(1, id))
    end
  end

  def tasks
    (1..150).map do |id|
      project = id <= 12 ? 1 : 2 + ((id - 13) / 3)
      due = (id % 4).zero? ? nil : Time.utc(2024, 3, 1, 9) + (id * 3600) + Rational((id * 37) % 1000, 1000)
      estimate = (id % 5).zero? ? nil : (BigDecimal(id % 8) / 4) + BigDecimal("0.5")
      { id: id, title: format("Task %03d", id), project_id: project, done: (id % 3).zero?,
        due_at: due, estimate: estimate }.merge(stamp(2, id))
    end
  end
end
