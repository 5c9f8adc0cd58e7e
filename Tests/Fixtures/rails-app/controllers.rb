# frozen_string_literal: true

# Scaffold-style JSON controllers (`rails g scaffold --api`), shared through one base class.
class ApplicationController < ActionController::API
  wrap_parameters format: [:json]

  rescue_from Listing::Invalid do |error|
    render json: { error: error.message }, status: :bad_request
  end

  rescue_from ActiveRecord::SubclassNotFound do
    render json: { type: ["is invalid"] }, status: :unprocessable_entity
  end
end

# CRUD for one model, top-level or nested under `parent_model` (by its route key, e.g. person_id).
class ResourcesController < ApplicationController
  class_attribute :model, :parent_model

  before_action :set_record, only: %i[show update destroy]

  # GET /projects(.json), GET /people/1/projects(.json)
  def index
    listing = Listing.new(scope, request.query_parameters, request.base_url + request.path)
    records = listing.records
    response.headers.merge!(listing.headers)
    render json: records
  end

  # GET /projects/1(.json)
  def show
    render json: @record
  end

  # POST /projects(.json), POST /people/1/projects(.json)
  def create
    @record = scope.new(record_params)
    if @record.save
      render json: @record, status: :created, location: location
    else
      render json: @record.errors, status: :unprocessable_entity
    end
  end

  # PATCH/PUT /projects/1(.json)
  def update
    if @record.update(record_params)
      render json: @record
    else
      render json: @record.errors, status: :unprocessable_entity
    end
  end

  # DELETE /projects/1(.json)
  def destroy
    @record.destroy
    head :no_content
  end

  private

  def parent_key
    parent_model && parent_model.model_name.singular.foreign_key
  end

  def parent
    key = parent_key
    return nil unless key && request.path_parameters.key?(key.to_sym)

    @parent ||= parent_model.find(request.path_parameters[key.to_sym])
  end

  def scope
    parent ? parent.public_send(model.model_name.plural) : model.all
  end

  def set_record
    @record = scope.find(params[:id])
  end

  def location
    public_send("#{model.model_name.singular_route_key}_url", @record.id)
  end

  def record_params
    params.require(model.model_name.param_key).permit(*(model.column_names - %w[id created_at updated_at]))
  end
end

class PeopleController < ResourcesController
  self.model = Person
end

class ProjectsController < ResourcesController
  self.model = Project
  self.parent_model = Person
end

class TasksController < ResourcesController
  self.model = Task
  self.parent_model = Project
end
